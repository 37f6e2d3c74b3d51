import type { Listing } from '@campus-books/common/listing.schemas';
import { activeCampus } from '@campus-books/common/active-campus';
import type { ListingRow } from '../../db/schema';

/**
 * The one shape every listing answer has (spec section 7 field names), with the seed's one boolean
 * per school of the campus after the schema's fields (what listing-json-trigger.ts writes, in its order).
 */
export function toListing(row: ListingRow): Listing {
  const campus = activeCampus();
  const stored = new Set(row.schools);
  const schools = campus.schoolKeys.filter((key) => stored.has(key));
  const flags = Object.fromEntries(campus.schoolKeys.map((key) => [key, stored.has(key)]));
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
    schools,
    school: campus.schoolLabels(schools),
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
    ...flags,
  };
}
