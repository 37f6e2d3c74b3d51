import { webPaths } from '@campus-books/common/paths';
import type { FastifyInstance } from 'fastify';
import type { ProfileUpdateInput } from '@campus-books/common/account.schemas';
import type { UserRow } from '../../db/schema';
import { unauthorized } from '../../lib/errors';
import { accountDeps } from './account-deps';
import { emailInUseMail } from './account-mails';
import { hashPassword } from './password';
import { sendVerificationLink } from './sign-up.service';
import { imageIdsOfUser } from '../images/images.repository';
import { claimImages, releaseImageIds, releaseImages } from '../images/images.service';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema';
import { deleteListingsOfUser, idsOfListingsBy } from '../listings/listings.repository';
import {
  keepDeletedForModerators,
  lockListingModeration,
} from '../listings/listing-moderation.repository';
import { logSellerDelete } from '../moderation/moderation.repository';
import { deleteUser, findUserByEmail, updateUser, type UserChanges } from './users.repository';

/**
 * The one place that decides whether a user may use `avatar` as their picture: their own processed
 * upload (marked attached), the picture they already have, or '' to remove it.
 */
export async function checkAvatar(
  app: FastifyInstance,
  userId: string,
  avatar: string,
  current: string | null = null,
): Promise<void> {
  if (avatar === '') return;
  await claimImages(app.database.db, userId, [avatar], current ? [current] : []);
}

export interface ProfileUpdateResult {
  user: UserRow;
  message: string;
}

/**
 * Changes only the fields sent. A new e-mail waits in pending_email until its link is used; a new
 * password ends the user's other sessions (the one making the change stays signed in).
 */
export async function updateProfile(
  app: FastifyInstance,
  user: UserRow,
  sessionId: string,
  input: ProfileUpdateInput,
): Promise<ProfileUpdateResult> {
  const { db } = app.database;
  const changes: UserChanges = {};
  if (input.username !== undefined) changes.username = input.username;
  if (input.groupmelink !== undefined) changes.groupmelink = input.groupmelink;
  if (input.avatar !== undefined) {
    await checkAvatar(app, user.id, input.avatar, user.avatar);
    changes.avatar = input.avatar === '' ? null : input.avatar;
  }
  if (input.password !== undefined) changes.passwordHash = await hashPassword(input.password);
  let newEmail: string | undefined;
  let takenBy: UserRow | undefined;
  if (input.email !== undefined) {
    if (input.email === user.email) {
      changes.pendingEmail = null; // back to the current address: cancel a pending change
    } else {
      // Answered alike whether or not the address has an account (no enumeration): its owner
      // gets a notice instead of a link, and the pending change can never be confirmed.
      const owner = await findUserByEmail(db, input.email);
      if (owner) takenBy = owner;
      changes.pendingEmail = newEmail = input.email;
    }
  }

  let updated = user;
  if (Object.keys(changes).length > 0) {
    updated = (await updateUser(db, user.id, changes)) ?? user;
  }
  if (user.avatar && changes.avatar !== undefined && changes.avatar !== user.avatar) {
    // The replaced picture's files go once nothing refers to it; a failure is retried by the sweep.
    await releaseImages(app.images, [user.avatar]).catch((error: unknown) =>
      app.log.warn({ err: error }, 'releasing the old avatar failed; the sweep will retry'),
    );
  }
  if (changes.passwordHash) await app.sessions.endAllForUser(user.id, sessionId);
  if (takenBy) {
    app.mailer.sendInBackground(
      emailInUseMail(takenBy.email, `${app.config.publicUrl}${webPaths.signIn.href()}`),
    );
  } else if (newEmail) {
    await sendVerificationLink(accountDeps(app), updated, newEmail);
  }

  const parts = ['Profile updated.'];
  if (newEmail) {
    parts.push(
      `We sent a verification link to ${newEmail}: check that inbox to confirm the new address. Until then your current address stays in use.`,
    );
  }
  if (changes.passwordHash)
    parts.push('Your password was changed and your other sessions were signed out.');
  return { user: updated, message: parts.join(' ') };
}

/**
 * Deletes the account; its sessions and e-mail tokens go with it (ON DELETE CASCADE), and its
 * listings, except those the moderators still have to look at (open reports, hidden, removed): as
 * for a seller's delete of one listing (decision 016), those stay for the moderators, without a
 * seller (user_id SET NULL), with an audit line `seller-delete`. Its images (listing photos,
 * avatar, unattached uploads) no kept listing shows are deleted after the row: their records
 * survive it (owner SET NULL), so a failed file deletion is finished by the sweep.
 */
export async function deleteAccount(app: FastifyInstance, userId: string): Promise<void> {
  const imageIds = await imageIdsOfUser(app.database.db, userId);
  const now = app.jobs.now();
  const deleted = await app.database.db.transaction(async (tx) => {
    const [seller] = await tx
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(eq(users.id, userId));
    // Of copies of one request racing here, one deletes; the others find no account any more.
    if (!seller) return false;
    for (const listingId of await idsOfListingsBy(tx, userId)) {
      await lockListingModeration(tx, listingId);
      const kept = await keepDeletedForModerators(tx, listingId, now);
      if (kept) await logSellerDelete(tx, seller, listingId, kept.status);
    }
    await deleteListingsOfUser(tx, userId);
    return deleteUser(tx, userId);
  });
  if (!deleted) throw unauthorized();
  app.listingCaches.invalidate();
  await releaseImageIds(app.images, imageIds).catch((error: unknown) =>
    app.log.warn({ err: error }, 'deleting account images failed; the sweep will retry'),
  );
}
