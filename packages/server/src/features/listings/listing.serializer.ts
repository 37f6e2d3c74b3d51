import type { Listing } from '@campus-books/common/listing.schemas';
import { SCHOOLS, type SchoolFlag } from '@campus-books/common/campus';
import type { ListingRow } from '../../db/schema';

/** The stored school flags, in the campus's order, for the five booleans a client sends. */
export function toSchoolFlags(input: Record<SchoolFlag, boolean>): SchoolFlag[] {
  return SCHOOLS.filter((s) => input[s.flag]).map((s) => s.flag);
}

/** The one shape every listing answer has (spec section 7 field names). */
export function toListing(row: ListingRow): Listing {
  const stored = new Set(row.schools);
  const flags = Object.fromEntries(SCHOOLS.map((s) => [s.flag, stored.has(s.flag)])) as Record<
    SchoolFlag,
    boolean
  >;
  return {
    _id: row.id,
    name: row.name,
    courseNumber: row.courseNumber,
    description: row.description,
    address: row.address,
    pickupLocation: row.pickupLocation,
    condition: row.condition,
    regularPrice: Number(row.regularPrice),
    discountPrice: Number(row.discountPrice),
    imageUrls: row.imageUrls,
    ...flags,
    school: SCHOOLS.filter((s) => stored.has(s.flag))
      .map((s) => s.label)
      .join(', '),
    major: row.major,
    type: row.type,
    // '' only on a listing kept for the moderators after its seller deleted their account.
    userRef: row.userId ?? '',
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    isbn: row.isbn,
    authors: row.authors,
    edition: row.edition,
    subject: row.subject,
    publisherCover: row.publisherCoverUrl,
    expiresAt: row.expiresAt.toISOString(),
    confirmedAt: row.confirmedAt.toISOString(),
    pendingUntil: row.heldUntil?.toISOString() ?? null,
  };
}
