import { describe, expect, it } from 'vitest';
import {
  isGroupmeLink,
  isSchoolEmail,
  passwordSchema,
  PASSWORD_HINT,
  profileUpdateSchema,
  resetPasswordSchema,
  schoolEmailLabel,
  signUpSchema,
} from './account.schemas';
import { activeCampus } from './active-campus';
import { MESSAGES } from './messages';

const rules = { schoolEmailDomain: null, groupmeLinkPrefix: 'https://groupme.com/' };

describe('account rules', () => {
  it('admits any .edu address by default, or only the configured campus', () => {
    expect(isSchoolEmail('a@richmond.edu', null)).toBe(true);
    expect(isSchoolEmail('a@gmail.com', null)).toBe(false);
    expect(isSchoolEmail('a@richmond.edu', 'richmond.edu')).toBe(true);
    expect(isSchoolEmail('a@spiders.richmond.edu', 'richmond.edu')).toBe(true);
    expect(isSchoolEmail('a@vcu.edu', 'richmond.edu')).toBe(false);
    expect(isSchoolEmail('a@notrichmond.edu', 'richmond.edu')).toBe(false);
  });

  it("accepts passwords of 8 to 128 characters (a password manager's, a passphrase) and no longer", () => {
    const passphrase = 'correct horse battery staple, and then some more words';
    for (const password of ['Secret-1', 'x'.repeat(13), passphrase, 'é'.repeat(128)]) {
      expect(passwordSchema.safeParse(password).success, password).toBe(true);
      expect(resetPasswordSchema.safeParse({ password }).success).toBe(true);
      expect(profileUpdateSchema(rules).safeParse({ password, currentPassword: 'x' }).success).toBe(
        true,
      );
    }
    for (const password of ['Secret1', 'x'.repeat(129)]) {
      expect(passwordSchema.safeParse(password).error?.issues[0]?.message).toBe(
        MESSAGES.passwordLength,
      );
    }
    expect(MESSAGES.passwordLength).toContain('8-128 characters');
    expect(PASSWORD_HINT).toMatch(/^8 to 128 characters/);
  });

  it('names the configured campus domain in the sign-up label and the refusal', () => {
    expect(schoolEmailLabel(null)).toBe('Email Address (.edu)');
    expect(schoolEmailLabel('richmond.edu')).toBe('Email Address (@richmond.edu)');
    const campus = { ...rules, schoolEmailDomain: 'richmond.edu' };
    const body = { firstName: 'Ada', lastName: 'L', password: 'Secret-123' };
    for (const email of ['ada@vcu.edu', 'not an address']) {
      const refused = signUpSchema(campus).safeParse({ ...body, email });
      expect(new Set(refused.error?.issues.map((i) => i.message))).toEqual(
        new Set(['Use your @richmond.edu address']),
      );
    }
    expect(
      profileUpdateSchema(campus).safeParse({ email: 'a@gmail.com', currentPassword: 'x' }).error
        ?.issues[0]?.message,
    ).toBe('Use your @richmond.edu address');
    // Without a configured domain, the spec's message.
    const any = signUpSchema(rules).safeParse({ ...body, email: 'ada@gmail.com' });
    expect(any.error?.issues.map((i) => i.message)).toEqual([MESSAGES.schoolEmail]);
  });

  it('refuses GroupMe look-alikes and other schemes', () => {
    const prefix = rules.groupmeLinkPrefix;
    expect(isGroupmeLink('https://groupme.com/contact/123', prefix)).toBe(true);
    for (const bad of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      '\thttps://groupme.com/x',
      'data:text/html,hi',
      'https://groupme.com.evil.example/x',
      'https://groupme.com@evil.example/x',
      '//evil.example',
      'http://groupme.com/x',
      ' https://groupme.com/x',
      'https://group\nme.com/x',
      'https://groupme.com:8443/x',
    ]) {
      expect(isGroupmeLink(bad, prefix), bad).toBe(false);
    }
    expect(isGroupmeLink('https://groupme.com/other', 'https://groupme.com/join/')).toBe(false);
  });

  it('reads the GroupMe host in its one spelling (case, trailing dot)', () => {
    const prefix = rules.groupmeLinkPrefix;
    for (const link of ['https://GroupMe.com/contact/1', 'https://groupme.com./contact/1']) {
      expect(isGroupmeLink(link, prefix), link).toBe(true);
    }
    expect(isGroupmeLink('https://groupme.com/contact/1', 'https://GROUPME.com./')).toBe(true);
  });

  it('gives the spec messages on sign-up', () => {
    const result = signUpSchema(rules).safeParse({
      firstName: '',
      lastName: '',
      email: 'me@gmail.com',
      password: 'short',
      groupmelink: 'https://evil.example',
    });
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((i) => i.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        MESSAGES.firstNameRequired,
        MESSAGES.lastNameRequired,
        MESSAGES.schoolEmail,
        MESSAGES.passwordLength,
        MESSAGES.groupmeLink('https://groupme.com/'),
      ]),
    );
  });

  it('asks for a GroupMe link at sign-up only where the campus requires one (groupme.required)', () => {
    const body = {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@richmond.edu',
      password: 'Secret-123',
    };
    // The default campus's rule (decision 019).
    expect(activeCampus().config.groupme.required).toBe(false);
    for (const link of [undefined, '', '  ']) {
      const parsed = signUpSchema(rules).safeParse({ ...body, groupmelink: link });
      expect(parsed.success && parsed.data.groupmelink).toBe('');
    }
    const bad = signUpSchema(rules).safeParse({ ...body, groupmelink: 'https://evil.example' });
    expect(bad.error?.issues.map((i) => i.message)).toEqual([
      MESSAGES.groupmeLink('https://groupme.com/'),
    ]);
    const required = signUpSchema({ ...rules, groupmeRequired: true });
    expect(required.safeParse({ ...body, groupmelink: '' }).success).toBe(false);
    expect(required.safeParse(body).success).toBe(false);
    expect(
      required.safeParse({ ...body, groupmelink: 'https://groupme.com/contact/1' }).success,
    ).toBe(true);
    // A link can be removed from the profile where it is optional, not where it is required.
    expect(profileUpdateSchema(rules).safeParse({ groupmelink: '' }).success).toBe(true);
    expect(
      profileUpdateSchema({ ...rules, groupmeRequired: true }).safeParse({ groupmelink: '' })
        .success,
    ).toBe(false);
  });
});
