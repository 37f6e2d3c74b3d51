import { z } from 'zod';
import { SUBJECT_CODES } from './campus';
import { ISBN_MESSAGES, parseIsbn } from './isbn';

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
  z
    .string({ error: typeMessage })
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
export const isbnSchema = z.string().transform((text, ctx) => {
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
      .refine((s) => SUBJECT_CODES.has(s), BOOK_MESSAGES.subjectUnknown),
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
export interface BookDetails {
  isbn: string;
  title: string | null;
  authors: string | null;
  edition: string | null;
  publisher: string | null;
  year: number | null;
  coverUrl: string | null;
}

/** GET /api/books/{isbn}: `found` false with a message when the book is unknown or lookup is off. */
export type BookLookupAnswer =
  { found: true; book: BookDetails } | { found: false; message: string };

/** This campus's copies of a book: the active ones' range, and what sold ones went for. */
export interface PriceSummary {
  active: { count: number; min: number | null; max: number | null };
  /** Median of the sold copies' prices, only from SOLD_PRICE_MIN_COUNT sales up (null below). */
  sold: { count: number; median: number | null };
}

/** GET /api/books/{isbn}/prices. (GET /api/course/{code}/prices?title= answers a PriceSummary.) */
export interface BookPrices extends PriceSummary {
  isbn: string;
}
export const SOLD_PRICE_MIN_COUNT = 3;

/** A book on a course page: the active copies of one ISBN (else one normalised title). */
export interface CourseBook {
  isbn: string | null;
  title: string;
  authors: string | null;
  edition: string | null;
  copies: number;
  lowestPrice: number;
  highestPrice: number;
  listingIds: string[];
}

/** GET /api/course/{code}. */
export interface CourseAnswer {
  subject: string | null;
  subjectName: string | null;
  courseNumber: string;
  /** "ECON 101", or the bare number. */
  label: string;
  books: CourseBook[];
}
