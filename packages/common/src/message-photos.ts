import { z } from 'zod';
import { apiSchemas } from './api';
import type { ImageVariant } from './images';

/** Photos one message may carry. */
export const MAX_MESSAGE_PHOTOS = 4;

/** The variant a thread shows inline; the full size opens full screen. */
export const MESSAGE_PHOTO_THUMBNAIL: ImageVariant = 640;

export const MESSAGE_PHOTO_MESSAGES = {
  notAnId: 'A photo is the id of an image you uploaded',
  tooMany: `A message carries at most ${MAX_MESSAGE_PHOTOS} photos`,
  twice: 'The same photo is attached twice',
  unknown: (id: string) => `Photo ${id} is not an upload we know: upload it again`,
  notYours: (id: string) => `Photo ${id} is not one of your uploads`,
  notProcessed: (id: string) =>
    `Photo ${id} is still being processed: wait a moment and send again`,
  alreadyAttached: (id: string) =>
    `Photo ${id} is already attached to a listing, a profile or a message: upload it again`,
} as const;

const IMAGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A message's photos: ids of the sender's own processed uploads, none used anywhere yet. */
export const messagePhotoIdsSchema = z
  .array(
    z
      .string({ error: MESSAGE_PHOTO_MESSAGES.notAnId })
      .regex(IMAGE_ID, MESSAGE_PHOTO_MESSAGES.notAnId),
    { error: MESSAGE_PHOTO_MESSAGES.notAnId },
  )
  .max(MAX_MESSAGE_PHOTOS, MESSAGE_PHOTO_MESSAGES.tooMany)
  .refine((ids) => new Set(ids).size === ids.length, MESSAGE_PHOTO_MESSAGES.twice)
  .optional()
  .describe(
    `Up to ${MAX_MESSAGE_PHOTOS} image ids (from POST /api/uploads), each the sender's own processed upload not attached to anything`,
  );

/** Where a conversation's photo is served: only to its two participants (and moderators of a report). */
export function messagePhotoUrl(conversationId: string, imageId: string, variant: ImageVariant) {
  return `/api/conversations/${conversationId}/photos/${imageId}/${variant}.webp`;
}

export const messagePhotoSchema = z
  .object({
    id: z.string().describe('The image id'),
    thumbnail: z.string().describe('The 640 px wide WebP, for the thread'),
    full: z.string().describe('The full size WebP (long side at most 2,560 px)'),
  })
  .register(apiSchemas, { id: 'MessagePhoto' });
export type MessagePhoto = z.infer<typeof messagePhotoSchema>;

/** A message's photos as the API answers them. */
export function messagePhotos(conversationId: string, imageIds: readonly string[]): MessagePhoto[] {
  return imageIds.map((id) => ({
    id,
    thumbnail: messagePhotoUrl(conversationId, id, MESSAGE_PHOTO_THUMBNAIL),
    full: messagePhotoUrl(conversationId, id, 'full'),
  }));
}
