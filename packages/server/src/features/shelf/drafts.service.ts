import type { FastifyInstance } from 'fastify';
import { listingCreateSchema, type ListingCreateInput } from '@campus-books/common/listing.schemas';
import {
  MAX_DRAFTS,
  type DraftOutcome,
  type DraftSaveBody,
} from '@campus-books/common/shelf.schemas';
import type { UserRow } from '../../db/schema';
import type { ListingDraftRow } from '../../db/shelf.schema';
import { AppError, conflict, notFound } from '../../lib/errors';
import { tooManyAttemptsMessage } from '../../plugins/rate-limit';
import { claimImages, releaseImages } from '../images/images.service';
import { toListing } from '../listings/listing.serializer';
import { findListingByIdempotencyKey } from '../listings/listings.repository';
import { listingDeps } from '../listings/listing-deps';
import { LISTING_CREATE_LIMIT, createListing } from '../listings/listings.service';
import {
  claimDraftsToPublish,
  countOwnDrafts,
  deleteDraft,
  deleteOwnDraft,
  findOwnDraft,
  releaseDraft,
  upsertDraft,
} from './drafts.repository';

export const DRAFT_NOT_FOUND = 'Draft not found';
export const TOO_MANY_DRAFTS = `You can keep ${MAX_DRAFTS} drafts: publish or delete some first`;
export const BEING_PUBLISHED = 'This draft is being published by another request';
/** A publish that stopped midway (its server died) leaves its drafts to the next one after this. */
const PUBLISH_LEASE_MS = 2 * 60_000;

/** The Idempotency-Key a draft's listing is created under: one listing per draft, ever. */
export const draftListingKey = (draftId: string) => `draft:${draftId}`;

/** Creates or replaces the caller's draft `id`; the photos must be their own uploads. */
export async function saveDraft(
  app: FastifyInstance,
  user: UserRow,
  id: string,
  input: DraftSaveBody,
): Promise<ListingDraftRow> {
  const { db } = app.database;
  const before = await findOwnDraft(db, user.id, id);
  if (!before && (await countOwnDrafts(db, user.id)) >= MAX_DRAFTS) {
    throw conflict(TOO_MANY_DRAFTS);
  }
  // Marked attached, so the unattached-image sweep leaves a draft's photos alone.
  await claimImages(db, user.id, input.imageUrls, before?.imageUrls ?? []);
  const row = await upsertDraft(db, user.id, id, input.fields, input.imageUrls);
  if (!row) throw notFound(DRAFT_NOT_FOUND);
  await releaseUnused(
    app,
    (before?.imageUrls ?? []).filter((u) => !input.imageUrls.includes(u)),
  );
  return row;
}

export async function removeDraft(app: FastifyInstance, user: UserRow, id: string): Promise<void> {
  const row = await deleteOwnDraft(app.database.db, user.id, id);
  if (!row) throw notFound(DRAFT_NOT_FOUND);
  await releaseUnused(app, row.imageUrls);
}

/** Photos no listing, profile or draft uses any more (a failure is left to the hourly sweep). */
async function releaseUnused(app: FastifyInstance, urls: string[]): Promise<void> {
  if (urls.length === 0) return;
  await releaseImages(app.images, urls).catch((error: unknown) =>
    app.log.warn({ err: error }, 'releasing draft images failed; the sweep will retry'),
  );
}

/** The listing a draft asks for: the shelf flow's defaults for what it does not ask. */
export function listingInputOf(draft: ListingDraftRow): unknown {
  const { fields } = draft;
  return {
    ...fields,
    regularPrice: fields.regularPrice ?? undefined,
    courseNumber: fields.courseNumber ?? '',
    name: fields.name ?? '',
    imageUrls: draft.imageUrls,
    type: 'sale',
  };
}

function outcomeOfError(draftId: string, error: AppError): DraftOutcome {
  return {
    draftId,
    status: 'failed',
    statusCode: error.statusCode,
    message: error.message,
    ...(error.errors ? { errors: error.errors } : {}),
  };
}

/** One draft through every rule of a single create (listings.service and its hourly limit). */
async function publishDraft(app: FastifyInstance, user: UserRow, draft: ListingDraftRow) {
  const parsed = listingCreateSchema.safeParse(listingInputOf(draft));
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => ({
      field: issue.path.join('.'),
      message: issue.message,
    }));
    const first = errors[0]!;
    throw new AppError(400, `${first.field}: ${first.message}`, errors);
  }
  const input: ListingCreateInput = parsed.data;
  const { name, windowMs } = LISTING_CREATE_LIMIT;
  const hit = await app.limits.take(
    name,
    user.id,
    app.config.rateLimits.listingsPerAccount,
    windowMs,
  );
  if (!hit.allowed) {
    throw new AppError(429, tooManyAttemptsMessage(hit.resetAt - Date.now()));
  }
  return createListing(listingDeps(app), user, input, draftListingKey(draft.id));
}

/**
 * "Publish all": each draft becomes its listing under the rules of a single create, or stays with
 * the reason. A draft's listing is created under its own idempotency key, and the drafts are claimed
 * in one statement first, so copies of the request sent at once make one listing per draft (and
 * count once against the hourly limit); a copy finds the drafts done or in another's hands.
 */
export async function publishDrafts(
  app: FastifyInstance,
  user: UserRow,
  draftIds: string[],
): Promise<DraftOutcome[]> {
  const { db } = app.database;
  const ids = [...new Set(draftIds)];
  const now = app.jobs.now();
  const claimed = new Map(
    (
      await claimDraftsToPublish(db, user.id, ids, now, new Date(now.getTime() - PUBLISH_LEASE_MS))
    ).map((draft) => [draft.id, draft]),
  );
  const results: DraftOutcome[] = [];
  for (const id of ids) {
    const draft = claimed.get(id);
    const made = await findListingByIdempotencyKey(db, user.id, draftListingKey(id));
    if (made) {
      if (draft) await deleteDraft(db, id);
      results.push({ draftId: id, status: 'published', listing: toListing(made) });
      continue;
    }
    if (!draft) {
      const exists = await findOwnDraft(db, user.id, id);
      results.push(
        outcomeOfError(id, exists ? conflict(BEING_PUBLISHED) : notFound(DRAFT_NOT_FOUND)),
      );
      continue;
    }
    try {
      const listing = await publishDraft(app, user, draft);
      await deleteDraft(db, id);
      results.push({ draftId: id, status: 'published', listing: toListing(listing) });
    } catch (error) {
      await releaseDraft(db, id);
      if (!(error instanceof AppError)) {
        app.log.error({ err: error, draftId: id }, 'publishing a draft failed');
        results.push(
          outcomeOfError(
            id,
            new AppError(500, 'Something went wrong on our side, please try again'),
          ),
        );
      } else results.push(outcomeOfError(id, error));
    }
  }
  return results;
}
