import type { CurrentUser } from '@campus-books/common/account.schemas';
import { describe, expect, it } from 'vitest';
import { changedProfileFields, profileFormValues } from './profile-changes';

const user: CurrentUser = {
  _id: 'u1',
  username: 'Ada Lovelace',
  email: 'ada@richmond.edu',
  groupmelink: 'https://groupme.com/ada',
  avatar: null,
  emailVerified: true,
  pendingEmail: null,
  createdAt: '2025-01-01T00:00:00.000Z',
};

describe('changedProfileFields', () => {
  it('sends nothing when nothing changed and the password is left empty', () => {
    expect(changedProfileFields(profileFormValues(user), user)).toEqual({});
  });

  it('sends only the fields that differ from the signed-in user', () => {
    const values = {
      ...profileFormValues(user),
      groupmelink: 'https://groupme.com/ada2',
      password: 'newpass12',
    };
    expect(changedProfileFields(values, user)).toEqual({
      groupmelink: 'https://groupme.com/ada2',
      password: 'newpass12',
    });
  });

  it('sends the current password with a new e-mail or password, and only then', () => {
    const values = {
      ...profileFormValues(user),
      email: 'ada.new@richmond.edu',
      currentPassword: 'Secret-123',
    };
    expect(changedProfileFields(values, user)).toEqual({
      email: 'ada.new@richmond.edu',
      currentPassword: 'Secret-123',
    });
    const namesOnly = { ...profileFormValues(user), username: 'Ada L', currentPassword: 'x' };
    expect(changedProfileFields(namesOnly, user)).toEqual({ username: 'Ada L' });
  });

  it('treats a differently cased or padded e-mail as unchanged', () => {
    const values = { ...profileFormValues(user), email: ' ADA@richmond.edu ' };
    expect(changedProfileFields(values, user)).toEqual({});
  });

  it('sends a new avatar', () => {
    const values = { ...profileFormValues(user), avatar: '/api/images/abc/1280.webp' };
    expect(changedProfileFields(values, user)).toEqual({ avatar: '/api/images/abc/1280.webp' });
  });
});
