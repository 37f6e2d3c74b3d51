import { z } from 'zod';
import { activeCampus } from './active-campus';
import { apiSchemas } from './api';
import { ISBN_MESSAGES, parseIsbn } from './isbn';
import { cleanText } from './text';

export const AUTHORS_MAX_LENGTH = 200;
export const EDITION_MAX_LENGTH = 40;

export const BOOK_MESSAGES = {
  ...ISBN_MESSAGES,
  isbnText: 'ISBN must be text, such as 978-0-262-03384-8',
  authorsText: 'Authors must be text',
  authorsTooLong: `Authors must be at most ${AUTHORS_MAX_LENGTH} characters`,
  editionText: 'Edition must be text',
  editionTooLong: `Edition must be at most ${EDITION_MAX_LENGTH} characters`,
  subjectUnknown: 'Choose a subject from the list (such as ECON or MATH)',
  publisherCover: "The publisher's cover must be one of the listing's images",
} as const;

/**
 * An optional text field of a listing: omitted keeps the stored value on an update, '' (or null)
 * clears it, anything else is trimmed and checked.
 */
const clearable = <T extends z.ZodType<string, string>>(typeMessage: string, inner: T) =>
  cleanText({ error: typeMessage })
    .nullable()
    .transform((value, ctx): z.output<T> | null => {
      const text = (value ?? '').trim();
      if (text === '') return null;
      const parsed = inner.safeParse(text);
      if (parsed.success) return parsed.data;
      for (const issue of parsed.error.issues)
        ctx.addIssue({ code: 'custom', message: issue.message });
      return z.NEVER;
    })
    .optional();

/** ISBN-10 or -13, hyphens and spaces allowed, check digit verified; stored as its ISBN-13. */
export const isbnSchema = cleanText().transform((text, ctx) => {
  const parsed = parseIsbn(text);
  if (parsed.ok) return parsed.isbn13;
  ctx.addIssue({ code: 'custom', message: ISBN_MESSAGES[parsed.reason] });
  return z.NEVER;
});

/** The book and course fields of a listing (issue "Books and courses"); all optional. */
export const bookListingFields = {
  isbn: clearable(BOOK_MESSAGES.isbnText, isbnSchema),
  authors: clearable(
    BOOK_MESSAGES.authorsText,
    z.string().max(AUTHORS_MAX_LENGTH, BOOK_MESSAGES.authorsTooLong),
  ),
  edition: clearable(
    BOOK_MESSAGES.editionText,
    z.string().max(EDITION_MAX_LENGTH, BOOK_MESSAGES.editionTooLong),
  ),
  subject: clearable(
    BOOK_MESSAGES.subjectUnknown,
    z
      .string()
      .transform((s) => s.toUpperCase())
      .refine((s) => activeCampus().subjectCodes.has(s), BOOK_MESSAGES.subjectUnknown),
  ),
  /** Which of the listing's image URLs is the publisher's cover (imported by the server), if any. */
  publisherCover: z
    .string({ error: BOOK_MESSAGES.publisherCover })
    .max(500, BOOK_MESSAGES.publisherCover)
    .nullable()
    .transform((v) => (v === '' ? null : v))
    .optional(),
};

/** A listing's publisher's cover is one of its images. */
export const publisherCoverIsAnImage = {
  check: (l: { publisherCover?: string | null; imageUrls: string[] }) =>
    !l.publisherCover || l.imageUrls.includes(l.publisherCover),
  issue: { error: BOOK_MESSAGES.publisherCover, path: ['publisherCover'] },
};

/** The book a listing sells, as the lookup answers it (GET /api/books/{isbn}). */
export const bookDetailsSchema = z
  .object({
    isbn: z.string(),
    title: z.string().nullable(),
    authors: z.string().nullable(),
    edition: z.string().nullable(),
    publisher: z.string().nullable(),
    year: z.number().int().nullable(),
    coverUrl: z.string().nullable(),
  })
  .register(apiSchemas, { id: 'BookDetails' });
export type BookDetails = z.infer<typeof bookDetailsSchema>;

/** GET /api/books/{isbn}: `found` false with a message when the book is unknown or lookup is off. */
export const bookLookupAnswerSchema = z.discriminatedUnion('found', [
  z.object({ success: z.literal(true), found: z.literal(true), book: bookDetailsSchema }),
  z.object({ success: z.literal(true), found: z.literal(false), message: z.string() }),
]);
export type BookLookupAnswer =
  { found: true; book: BookDetails } | { found: false; message: string };

/** This campus's copies of a book: the active ones' range, and what sold ones went for. */
export const priceSummarySchema = z
  .object({
    active: z.object({
      count: z.number().int(),
      min: z.number().nullable(),
      max: z.number().nullable(),
    }),
    sold: z.object({
      count: z.number().int(),
      median: z
        .number()
        .nullable()
        .describe("Median of the sold copies' prices, only from SOLD_PRICE_MIN_COUNT sales up"),
    }),
  })
  .register(apiSchemas, { id: 'PriceSummary' });
export type PriceSummary = z.infer<typeof priceSummarySchema>;

/** GET /api/books/{isbn}/prices. (GET /api/course/{code}/prices?title= answers a PriceSummary.) */
export interface BookPrices extends PriceSummary {
  isbn: string;
}
export const SOLD_PRICE_MIN_COUNT = 3;

/** A book on a course page: the active copies of one ISBN (else one normalised title). */
export const courseBookSchema = z
  .object({
    isbn: z.string().nullable(),
    title: z.string(),
    authors: z.string().nullable(),
    edition: z.string().nullable(),
    copies: z.number().int(),
    lowestPrice: z.number(),
    highestPrice: z.number(),
    listingIds: z.array(z.string()),
  })
  .register(apiSchemas, { id: 'CourseBook' });
export type CourseBook = z.infer<typeof courseBookSchema>;

/** GET /api/course/{code}. */
export const courseAnswerSchema = z.object({
  success: z.literal(true),
  subject: z.string().nullable(),
  subjectName: z.string().nullable(),
  courseNumber: z.string(),
  label: z.string().describe('"ECON 101", or the bare number'),
  books: z.array(courseBookSchema),
  requiredBooks: z
    .array(z.object({ isbn: z.string(), title: z.string(), required: z.boolean() }))
    .describe("The campus bookstore's list for the course: required books first"),
});
export type CourseAnswer = Omit<z.infer<typeof courseAnswerSchema>, 'success'>;
