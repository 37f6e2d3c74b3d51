import { z } from 'zod';
import { apiSchemas, dateTimeSchema } from './api';
import { PRICE_MAX } from './constants';
import { formatCount } from './display';
import { messagePhotoIdsSchema, messagePhotoSchema } from './message-photos';
import { MAX_OFFER_SET_EXTRA, offerListingIdsSchema, offerListingsSchema } from './offer-sets';
import { cleanText } from './text';

/** The longest message, in characters after the text rule (NFC, trimmed). */
export const MESSAGE_MAX_LENGTH = 2000;

/** How much of the latest message an inbox line carries. */
export const INBOX_PREVIEW_MAX_LENGTH = 140;

/** The inbox line's preview of a message of photos and no text. */
export const PHOTO_ONLY_PREVIEW = 'Photo';

/**
 * What a conversation's timeline holds: a message, an offer and its answers, and the system lines of
 * what happened to the listing (its price, the hold, sold, relisted, expired, removed) and to the
 * conversation (a block made it read-only, the unblock opened it again).
 */
export const CONVERSATION_EVENT_KINDS = [
  'message',
  'offer',
  'offer_accepted',
  'offer_declined',
  'pending',
  'hold_released',
  'hold_expired',
  'price',
  'sold',
  'relisted',
  'expired',
  'removed',
  'blocked',
  'unblocked',
] as const;
export type ConversationEventKind = (typeof CONVERSATION_EVENT_KINDS)[number];

/** An offer is open until answered; a newer offer from either side closes it as `countered`. */
export const OFFER_STATUSES = ['open', 'accepted', 'declined', 'countered', 'closed'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

export const CONVERSATION_MESSAGES = {
  textRequired: 'Write a message',
  textTooLong: `A message is at most ${formatCount(MESSAGE_MAX_LENGTH)} characters`,
  amountWhole: 'An offer is a whole number of dollars',
  ownListing: 'This is your own listing: buyers write to you here',
  listingClosed: 'This listing is not for sale any more: it cannot take new offers',
  listingGone: 'This listing is no longer available for new conversations',
  offerAbovePrice: 'An offer cannot be above the listing price',
  offerNotOpen: 'This offer was already answered',
  ownOffer: 'The other student answers your offer',
  alreadyHeld: 'This listing is already on hold for another buyer',
  notHeld: 'This listing is not on hold',
  buyerNotInConversations: 'Choose one of the students who wrote about this listing',
  blocked: 'You cannot write to this student',
  deletedAccount: 'The other student deleted their account: this conversation is read-only',
  counterNeedsOffer: 'You can counter once the buyer has made an offer',
  conversationNotFound: 'Conversation not found',
  clientIdReused: 'This message id was already used for another message',
} as const;

export { FIRST_MESSAGES, firstMessageText } from './first-messages';

const CLIENT_ID_RULE = 'clientId is 8 to 100 letters, digits, dots, dashes or underscores';

/**
 * The sending device's id for one message (random, made once per message typed, such as a UUID):
 * sent again (a double tap, a retry), the same message is answered and no second one is made.
 */
export const messageClientIdSchema = z
  .string({ error: CLIENT_ID_RULE })
  .regex(/^[\w.-]{8,100}$/, CLIENT_ID_RULE)
  .optional()
  .describe('A random id the client makes once per message (a UUID): sent twice, one message');

/** A message as typed: the shared text rule, 1–2,000 characters, line breaks allowed. */
export const messageTextSchema = cleanText({
  error: CONVERSATION_MESSAGES.textRequired,
  required: CONVERSATION_MESSAGES.textRequired,
  multiline: true,
})
  .min(1, CONVERSATION_MESSAGES.textRequired)
  .max(MESSAGE_MAX_LENGTH, CONVERSATION_MESSAGES.textTooLong);

/**
 * A message's text beside its photos: optional (a photo-only message stores "") when 1–4 photos come
 * with it, and otherwise required as `messageTextSchema` says (an empty or blank text is refused).
 */
const optionalMessageTextSchema = cleanText({
  error: CONVERSATION_MESSAGES.textRequired,
  multiline: true,
})
  .max(MESSAGE_MAX_LENGTH, CONVERSATION_MESSAGES.textTooLong)
  .optional()
  .describe('The text; optional when photos come with it');

/** A message is text, photos or both: no photo, the text must say something. */
function requireTextOrPhotos(
  message: { text?: string | undefined; photos?: string[] | undefined },
  ctx: z.RefinementCtx,
) {
  if (!message.text && (message.photos ?? []).length === 0) {
    ctx.addIssue({ code: 'custom', path: ['text'], message: CONVERSATION_MESSAGES.textRequired });
  }
}

/** POST /api/conversations: the first message about a listing (or the next, to the same thread). */
export const startConversationSchema = z
  .object({
    listingId: z.string({ error: 'Say which listing' }).max(100, 'Say which listing'),
    text: optionalMessageTextSchema,
    clientId: messageClientIdSchema,
    photos: messagePhotoIdsSchema,
  })
  .superRefine(requireTextOrPhotos);
export type StartConversationInput = z.infer<typeof startConversationSchema>;

/** POST /api/conversations/{id}/messages */
export const sendMessageSchema = z
  .object({
    text: optionalMessageTextSchema,
    clientId: messageClientIdSchema,
    photos: messagePhotoIdsSchema,
  })
  .superRefine(requireTextOrPhotos);
export type SendMessageInput = z.infer<typeof sendMessageSchema>;

/**
 * POST /api/conversations/{id}/offers: whole dollars, 0 up to the listing's price, or for a set
 * (`listingIds`, offer-sets.ts) up to the sum of its books' prices.
 */
export const offerSchema = z.object({
  amount: z
    .number({ error: CONVERSATION_MESSAGES.amountWhole })
    .int(CONVERSATION_MESSAGES.amountWhole)
    .min(0, CONVERSATION_MESSAGES.amountWhole)
    .max(PRICE_MAX * (MAX_OFFER_SET_EXTRA + 1), CONVERSATION_MESSAGES.offerAbovePrice)
    .describe('Whole dollars for the whole set'),
  listingIds: offerListingIdsSchema,
});
export type OfferInput = z.infer<typeof offerSchema>;

/**
 * POST /api/conversations/offers: one offer made from a listing's page or its seller's profile
 * (issue 44), before any conversation: it opens (or finds) the buyer's conversation about
 * `listingId`, posts the text (if any) and the offer for the set in one transaction. `clientId` is
 * required: a double tap or a retry answers the first offer and makes nothing more.
 */
export const offerFromListingSchema = offerSchema.extend({
  listingId: z.string({ error: 'Say which listing' }).max(100, 'Say which listing'),
  text: optionalMessageTextSchema.describe('A message sent before the offer; optional'),
  clientId: z
    .string({ error: CLIENT_ID_RULE })
    .regex(/^[\w.-]{8,100}$/, CLIENT_ID_RULE)
    .describe('A random id the client makes once per offer (a UUID): sent twice, one offer'),
});
export type OfferFromListingInput = z.infer<typeof offerFromListingSchema>;

/** POST /api/conversations/{id}/read: everything up to this event id has been seen. */
export const readSchema = z.object({
  upTo: z.number({ error: 'upTo is an event id' }).int().min(0).max(Number.MAX_SAFE_INTEGER),
});

/** POST /api/conversations/listing/{listingId}/sold: the buyer among those who wrote, or null. */
export const soldToSchema = z.object({
  buyerId: z.string({ error: CONVERSATION_MESSAGES.buyerNotInConversations }).max(100).nullable(),
});
export type SoldToInput = z.infer<typeof soldToSchema>;

export const conversationEventSchema = z
  .object({
    id: z.number().int().describe('Grows with every event; a stream resumes after it'),
    conversationId: z.string(),
    kind: z.enum(CONVERSATION_EVENT_KINDS),
    author: z
      .enum(['buyer', 'seller'])
      .nullable()
      .describe('Who wrote or did it; null for system lines and deleted accounts'),
    deletedAuthor: z.boolean().describe('Written by an account deleted since'),
    body: z.string().nullable().describe('A message, as plain text (never rendered as a link)'),
    amount: z.number().nullable().describe('An offer in whole dollars, or the new price'),
    offerId: z.string().nullable(),
    photos: z
      .array(messagePhotoSchema)
      .describe("A message's photos, served only to the conversation; [] for other events"),
    listings: offerListingsSchema,
    createdAt: dateTimeSchema,
  })
  .register(apiSchemas, { id: 'ConversationEvent' });
export type ConversationEvent = z.infer<typeof conversationEventSchema>;

export const offerAnswerSchema = z
  .object({
    id: z.string(),
    from: z.enum(['buyer', 'seller']).nullable(),
    amount: z.number().int(),
    status: z.enum(OFFER_STATUSES),
    listings: offerListingsSchema,
    createdAt: dateTimeSchema,
  })
  .register(apiSchemas, { id: 'Offer' });
export type Offer = z.infer<typeof offerAnswerSchema>;

export const conversationSummarySchema = z
  .object({
    id: z.string(),
    role: z.enum(['buyer', 'seller']).describe("The caller's side"),
    listing: z.object({
      id: z.string().nullable().describe('null once the listing was deleted'),
      name: z.string(),
      price: z.number().nullable(),
      cover: z.string().nullable(),
      status: z.string().nullable(),
      pendingUntil: dateTimeSchema.nullable(),
      available: z
        .boolean()
        .describe(
          'false: hidden, removed or deleted ("no longer available"): only the title shows, price, cover and status are null',
        ),
    }),
    other: z.object({
      id: z.string().nullable(),
      username: z.string().nullable().describe('null: a deleted account'),
    }),
    lastEventId: z.number().int(),
    lastEventAt: dateTimeSchema,
    lastEvent: z
      .object({
        kind: z.enum(CONVERSATION_EVENT_KINDS),
        author: conversationEventSchema.shape.author,
        preview: z
          .string()
          .nullable()
          .describe(
            `A message's first ${INBOX_PREVIEW_MAX_LENGTH} characters, as plain text ("${PHOTO_ONLY_PREVIEW}" for photos without text)`,
          ),
        amount: conversationEventSchema.shape.amount,
      })
      .nullable()
      .describe('The latest event the caller may read, for the inbox line'),
    openOffer: offerAnswerSchema
      .pick({ amount: true, from: true })
      .nullable()
      .describe('The offer waiting for an answer'),
    unread: z.boolean(),
    seenUpTo: z
      .number()
      .int()
      .nullable()
      .describe(
        'The last event id the other side has read; null unless both students have read receipts on',
      ),
    seenAt: dateTimeSchema
      .nullable()
      .describe('When the other side last read (null as seenUpTo, or before they ever opened it)'),
  })
  .register(apiSchemas, { id: 'ConversationSummary' });
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;

export const conversationSchema = conversationSummarySchema
  .extend({
    events: z.array(conversationEventSchema).describe('Oldest first'),
    openOffer: offerAnswerSchema.nullable(),
    heldForThisBuyer: z.boolean().describe('The listing is on hold for this conversation’s buyer'),
    readOnly: z.boolean().describe('A block or a deleted account: nobody can write any more'),
  })
  .register(apiSchemas, { id: 'Conversation' });
export type Conversation = z.infer<typeof conversationSchema>;

/** The live stream's `event: seen`: the other side read a conversation up to `seenUpTo`. */
export const seenMarkSchema = z
  .object({
    conversationId: z.string(),
    seenUpTo: z.number().int(),
    seenAt: dateTimeSchema,
  })
  .register(apiSchemas, { id: 'SeenMark' });
export type SeenMark = z.infer<typeof seenMarkSchema>;

/** GET and POST /api/conversations/receipts: the student's read receipts ("Seen"). */
export const readReceiptsSchema = z.object({
  readReceipts: z
    .boolean()
    .describe('Show others when you have read their messages; off, you see none of theirs either'),
});

export const conversationListSchema = z.object({
  conversations: z.array(conversationSummarySchema),
});

export const unreadCountSchema = z.object({
  count: z.number().int().describe('Conversations with something the caller has not read'),
});

/** The answer of a message or offer sent: the event it made and its conversation. */
export const sentEventSchema = z.object({
  success: z.literal(true),
  conversationId: z.string(),
  event: conversationEventSchema,
});
export type SentEvent = z.infer<typeof sentEventSchema>;

/** GET /api/blocks: the students the caller blocked. */
export const blockListSchema = z.object({
  blocked: z.array(z.object({ id: z.string(), username: z.string(), blockedAt: dateTimeSchema })),
});
