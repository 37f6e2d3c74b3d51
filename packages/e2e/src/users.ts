import type { ApiCallOptions } from '@campus-books/common/call-route';
import type { Listing } from '@campus-books/common/listing.schemas';
import { Api, ApiFailure } from './api';
import { uniqueSuffix } from './env';
import { bookCover } from './images';
import { linkIn, VERIFY_SUBJECT, waitForMail } from './mail';

export const GROUPME_PREFIX = 'https://groupme.com/';

/** A student's sign-up details, unique per call. */
export function newStudent(label = 'student') {
  const suffix = uniqueSuffix();
  const firstName = label.charAt(0).toUpperCase() + label.slice(1);
  const lastName = `Tester${suffix.slice(-5)}`;
  return {
    firstName,
    lastName,
    username: `${firstName} ${lastName}`,
    email: `${label}.${suffix}@e2e.campus.edu`,
    password: `pw${suffix.slice(-8)}`,
    groupmelink: `${GROUPME_PREFIX}contact/${suffix}`,
  };
}
export type Student = ReturnType<typeof newStudent>;

/** A verified user signed in through its own API session. */
export interface TestUser extends Student {
  id: string;
  api: Api;
  /** The URL of an uploaded cover, reused by the listings this user creates through the API. */
  coverUrl?: string;
}

/** The server a helper talks to when not the suite's: a spec's own server (src/own-server.ts). */
export interface ServerTarget {
  url: string;
  outboxDir: string;
}

/** Signs up through the API and opens the verification link from the outbox. */
export async function signUpAndVerify(api: Api, student: Student, outbox?: string): Promise<void> {
  await api.call('POST /api/auth/signup', { body: student });
  const mail = await waitForMail(student.email, VERIFY_SUBJECT, { outbox });
  const token = linkIn(mail, '/verify-email/').split('/').pop();
  await api.call('POST /api/auth/verify-email', { body: { token: token ?? '' } });
}

export async function createUser(label?: string, server?: ServerTarget): Promise<TestUser> {
  const student = newStudent(label);
  const api = await Api.open(server?.url);
  await signUpAndVerify(api, student, server?.outboxDir);
  const me = await api.signIn(student.email, student.password);
  return { ...student, id: me._id, api };
}

/** Deletes the account (and so its listings and images); tolerates an account already gone. */
export async function deleteUser(user: TestUser): Promise<void> {
  // Deleting an account asks for its current password.
  const remove = () =>
    user.api.call('DELETE /api/user/delete/:id', {
      params: { id: user.id },
      body: { currentPassword: user.password },
    });
  try {
    try {
      await remove();
    } catch (error) {
      if (!(error instanceof ApiFailure) || error.status !== 401) throw error;
      // The session ended (sign-out, password reset): sign in again with the current password.
      await user.api.signIn(user.email, user.password);
      await remove();
    }
  } catch (error) {
    if (!(error instanceof ApiFailure) || ![401, 403, 404].includes(error.status)) throw error;
  } finally {
    await user.api.dispose();
  }
}

type ListingBody = ApiCallOptions<'POST /api/listing/create'>['body'];

export const DEFAULT_LISTING = {
  description: 'Clean copy, no highlighting.',
  address: 'Boatwright Library',
  condition: 'good',
  regularPrice: 20,
  discountPrice: 0,
  schools: ['Bschool'],
  major: '',
  type: 'sale',
} satisfies Partial<ListingBody>;

/** Creates a listing through the API, uploading one cover for the user the first time. */
export async function createListing(
  user: TestUser,
  fields: Partial<ListingBody> & { name: string; courseNumber: string },
): Promise<Listing> {
  user.coverUrl ??= await user.api.uploadImage(await bookCover());
  return user.api.createListing({ ...DEFAULT_LISTING, imageUrls: [user.coverUrl], ...fields });
}
