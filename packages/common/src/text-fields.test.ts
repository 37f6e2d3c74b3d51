import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as account from './account.schemas';
import * as alert from './alert.schemas';
import * as api from './api';
import * as book from './book.schemas';
import * as conversation from './conversation.schemas';
import * as listing from './listing.schemas';
import * as meetup from './meetup.schemas';
import * as moderation from './moderation.schemas';
import * as myCourses from './my-courses.schemas';
import * as notification from './notification.schemas';
import * as privacy from './privacy';
import * as push from './push.schemas';
import * as rating from './rating.schemas';
import * as shelf from './shelf.schemas';
import * as statistics from './statistics.schemas';
import { FIXTURES } from './text-fields.fixtures';

declare global {
  interface ImportMeta {
    /** Vite's (and so vitest's) list of the files a pattern matches. */
    glob(pattern: string): Record<string, () => Promise<unknown>>;
  }
}

/** Every module of schemas, by file name: a new `*.schemas.ts` must be added here. */
const MODULES = {
  'account.schemas.ts': account,
  'alert.schemas.ts': alert,
  'book.schemas.ts': book,
  'conversation.schemas.ts': conversation,
  'listing.schemas.ts': listing,
  'meetup.schemas.ts': meetup,
  'moderation.schemas.ts': moderation,
  'my-courses.schemas.ts': myCourses,
  'notification.schemas.ts': notification,
  'push.schemas.ts': push,
  'rating.schemas.ts': rating,
  'shelf.schemas.ts': shelf,
  'statistics.schemas.ts': statistics,
};

/**
 * Every text field of every request schema follows the one text rule (`cleanText`): this walks the
 * exported schemas, so a new field or schema that skips the rule fails here. Issue 26 item 7.
 */
const RULES = { schoolEmailDomain: null, groupmeLinkPrefix: 'https://groupme.com/' };

/** Schemas of answers (never parsed from a person's input). */
const ANSWERS = new Set([
  'apiErrorSchema',
  'apiMessageSchema',
  'seenMarkSchema',
  'publicConfigSchema',
  'dateTimeSchema',
  'currentUserSchema',
  'sellerSchema',
  'alertSchema',
  'listingSchema',
  'bookDetailsSchema',
  'bookLookupAnswerSchema',
  'priceSummarySchema',
  'courseBookSchema',
  'courseAnswerSchema',
  'moderationQueueItemSchema',
  'moderationLogEntrySchema',
  'conversationEventSchema',
  'offerAnswerSchema',
  'conversationSummarySchema',
  'conversationSchema',
  'conversationListSchema',
  'unreadCountSchema',
  'sentEventSchema',
  'blockListSchema',
  'statisticsWeekSchema',
  'missedSearchSchema',
  'operatorStatisticsSchema',
  'privacySettingsSchema',
  'addCoursesAnswerSchema',
  'calendarAnswerSchema',
  'cheapListingSchema',
  'courseBooksAnswerSchema',
  'draftOutcomeSchema',
  'draftPublishAnswerSchema',
  'draftSchema',
  'exchangeListSchema',
  'exchangeSchema',
  'meetupAnswerSchema',
  'meetupListSchema',
  'meetupSchema',
  'myCourseBookSchema',
  'myCourseSchema',
  'myCoursesAnswerSchema',
  'notifyAnswerSchema',
  'publicProfileSchema',
  'pushPayloadSchema',
  'pushPublicKeySchema',
  'pushSubscriptionSchema',
  'pushSubscriptionListSchema',
  'ratedSchema',
  'ratingSchema',
  'reportedRatingListSchema',
  'reportedRatingSchema',
  'reportedConversationSchema',
  'reportedConversationListSchema',
  'reportedConversationThreadSchema',
  'unreadCourseSchema',
  'wantedCourseSchema',
  'notificationSettingsAnswerSchema',
  'notificationSettingsSavedSchema',
]);
/** Secrets and signed tokens are compared byte for byte, never shown: they are not rewritten. */
const SECRETS = new Set([
  'password',
  'currentPassword',
  'token',
  'passwordSchema',
  'challengeField',
]);
/** Ids name a row (an unknown one is a 404); they are not text a person reads. */
const IDS = new Set([
  'listingId',
  'listingIds',
  'buyerId',
  'conversationId',
  'draftIds',
  'clientId',
  'photos',
]);
/** Demand's ISBN is read by `toIsbn13` (which skips spaces) to count students: never stored or shown. */
const PARSED = new Set(['demandQuerySchema.isbn']);
/** A file's text, read by its own parser (an .ics calendar), never stored or shown as typed. */
const FILES = new Set(['calendar']);
/** Multi-line fields keep their line breaks. */
const MULTILINE = new Set([
  'description',
  'note',
  'reason',
  'text',
  'comment',
  'messageTextSchema',
]);

function requestSchemas(): [string, z.ZodType][] {
  const found: [string, z.ZodType][] = [];
  const modules = { ...api, ...privacy, ...Object.assign({}, ...Object.values(MODULES)) } as Record<
    string,
    unknown
  >;
  for (const [name, value] of Object.entries(modules)) {
    if (ANSWERS.has(name)) continue;
    if (value && typeof value === 'object' && 'safeParse' in value) {
      found.push([name, value as z.ZodType]);
    } else if (typeof value === 'function' && name.endsWith('Schema')) {
      found.push([name, (value as (rules: typeof RULES) => z.ZodType)(RULES)]);
    }
  }
  return found;
}

/** The schema's fields: an object's keys, or '' for a schema of one value. */
function fieldsOf(schema: z.ZodType): string[] {
  let inner = schema as unknown as { shape?: object; def?: { out?: unknown; type?: string } };
  // deleteAccountSchema is a preprocess (a pipe) in front of its object.
  if (!inner.shape && inner.def?.type === 'pipe') inner = inner.def.out as typeof inner;
  return inner.shape ? Object.keys(inner.shape) : [''];
}

const withField = (body: Record<string, unknown>, field: string, value: unknown) =>
  field === '' ? value : { ...body, [field]: value };
const outputOf = (value: unknown, field: string) =>
  field === '' ? value : (value as Record<string, unknown>)[field];
/** The fixture's text with `insert` in its middle (the first item of an array of text). */
function spliced(value: unknown, insert: string): unknown {
  if (Array.isArray(value)) return [spliced(value[0], insert), ...value.slice(1)];
  const text = value as string;
  const middle = Math.ceil(text.length / 2);
  return `${text.slice(0, middle)}${insert}${text.slice(middle)}`;
}
const INVISIBLE = /[\u00AD\u200B-\u200D\u2060\uFEFF\u3164]/u;

describe('every text field follows the text rule', () => {
  const schemas = requestSchemas();

  it('walks every module of schemas', () => {
    const files = Object.keys(import.meta.glob('./*.schemas.ts')).map((f) => f.slice(2));
    expect(files.sort()).toEqual(Object.keys(MODULES).sort());
  });

  it('finds every request schema and has a valid body for each', () => {
    expect(schemas.map(([name]) => name).sort()).toEqual(Object.keys(FIXTURES).sort());
    for (const [name, schema] of schemas) {
      const fixture = FIXTURES[name]!;
      expect(fieldsOf(schema).sort(), name).toEqual(Object.keys(fixture).sort());
      const body = fieldsOf(schema)[0] === '' ? fixture[''] : fixture;
      const parsed = schema.safeParse(body);
      expect(parsed.error?.issues ?? [], name).toEqual([]);
    }
  });

  const textFields = schemas.flatMap(([name, schema]) =>
    fieldsOf(schema)
      .filter((field) => {
        const sample = FIXTURES[name]?.[field];
        const text = Array.isArray(sample) ? sample[0] : sample;
        return (
          typeof text === 'string' &&
          !SECRETS.has(field) &&
          !SECRETS.has(name) &&
          !IDS.has(field) &&
          !FILES.has(field) &&
          !PARSED.has(`${name}.${field}`)
        );
      })
      .map((field) => [name, field, schema] as const),
  );

  it.each(textFields)('%s.%s', (name, field, schema) => {
    const fixture = FIXTURES[name]!;
    const body = fieldsOf(schema)[0] === '' ? fixture[''] : fixture;
    const sample = field === '' ? body : fixture[field];
    const clean = outputOf(schema.parse(body), field);
    const parse = (insert: string) =>
      schema.safeParse(withField(body as Record<string, unknown>, field, spliced(sample, insert)));

    // Text-direction characters and control characters are refused.
    for (const bad of ['\u202E', '\u2066', '\u0000', '\u001B', '\u0085']) {
      expect(parse(bad).success, `${JSON.stringify(bad)} in ${name}.${field}`).toBe(false);
    }
    // A NUL is a control character like any other: the same documented message, so the API (which
    // validates before its NUL guard) answers `field: Must not contain line breaks or control
    // characters` for it too, not a message of its own.
    const messageOf = (insert: string) => parse(insert).error?.issues[0]?.message;
    expect(messageOf('\u0000'), `NUL in ${name}.${field}`).toBe(messageOf('\u001B'));
    // Line breaks are refused in single-line text.
    if (!MULTILINE.has(field) && !MULTILINE.has(name)) {
      for (const bad of ['\n', '\r', '\u2028']) {
        expect(parse(bad).success, `${JSON.stringify(bad)} in ${name}.${field}`).toBe(false);
      }
    }
    // Invisible characters are removed (the field reads as without them) or refused.
    for (const invisible of ['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u00AD']) {
      const result = parse(invisible);
      if (!result.success) continue;
      const kept = outputOf(result.data, field);
      expect(JSON.stringify(kept), `${JSON.stringify(invisible)} in ${name}.${field}`).toBe(
        JSON.stringify(clean),
      );
      expect(INVISIBLE.test(JSON.stringify(kept))).toBe(false);
    }
  });
});
