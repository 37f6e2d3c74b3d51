import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { SCHOOLS, type SchoolFlag } from '@campus-books/common/campus';
import { listingSchema, type Listing } from '@campus-books/common/listing.schemas';
import { textLiteral } from '../../db/literal';
import { listings } from '../../db/schema';

/** A timestamp as `Date.prototype.toISOString` writes it: UTC, milliseconds (truncated), `Z`. */
const isoTime = (column: PgColumn) =>
  sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const hasSchool = (flag: SchoolFlag) => sql`${textLiteral(flag)} = ANY(${listings.schools})`;

/**
 * Each field of the listing answer as the database computes it from a `listings` row: the same
 * values `toListing` (listing.serializer.ts) gives, which listing-json.test.ts holds it to.
 */
const FIELDS = {
  _id: sql`${listings.id}`,
  name: sql`${listings.name}`,
  courseNumber: sql`${listings.courseNumber}`,
  description: sql`${listings.description}`,
  address: sql`${listings.address}`,
  pickupLocation: sql`${listings.pickupLocation}`,
  condition: sql`${listings.condition}`,
  regularPrice: sql`${listings.regularPrice}::float8`,
  discountPrice: sql`${listings.discountPrice}::float8`,
  imageUrls: sql`${listings.imageUrls}`,
  ...(Object.fromEntries(SCHOOLS.map((s) => [s.flag, hasSchool(s.flag)])) as Record<
    SchoolFlag,
    SQL
  >),
  // The chosen schools' labels in the campus's order; concat_ws skips the NULLs of the others.
  school: sql`concat_ws(', ', ${sql.join(
    SCHOOLS.map((s) => sql`CASE WHEN ${hasSchool(s.flag)} THEN ${textLiteral(s.label)} END`),
    sql`, `,
  )})`,
  major: sql`${listings.major}`,
  type: sql`${listings.type}`,
  userRef: sql`${listings.userId}`,
  status: sql`${listings.status}`,
  createdAt: isoTime(listings.createdAt),
  updatedAt: isoTime(listings.updatedAt),
  isbn: sql`${listings.isbn}`,
  authors: sql`${listings.authors}`,
  edition: sql`${listings.edition}`,
  subject: sql`${listings.subject}`,
  publisherCover: sql`${listings.publisherCoverUrl}`,
  expiresAt: isoTime(listings.expiresAt),
  confirmedAt: isoTime(listings.confirmedAt),
} satisfies Record<keyof Listing, SQL>;

/**
 * A listing's answer as JSON text, written by the database in the schema's field order: what
 * `JSON.stringify(toListing(row))` would give, for the search, whose answers are the server's most
 * frequent. The server then neither parses the row's columns nor builds and serializes an object
 * per listing: it joins the texts (docs/performance.md, "Where the CPU goes"). Only the schema's
 * fields are named, so no other column leaves the server. The keys (the schema's own identifiers)
 * and the campus's schools are written into the statement as literals, not parameters.
 */
export const listingJson: SQL<string> = sql<string>`json_build_object(${sql.join(
  Object.keys(listingSchema.shape).map((key) => {
    if (!/^\w+$/.test(key)) throw new Error(`listing field ${key} is not an identifier`);
    return sql`${sql.raw(`'${key}'`)}, ${FIELDS[key as keyof Listing]}`;
  }),
  sql`, `,
)})::text`;

/** The answer of a search page: a JSON array of listings' JSON texts. */
export const jsonArray = (texts: string[]): string => `[${texts.join(',')}]`;
