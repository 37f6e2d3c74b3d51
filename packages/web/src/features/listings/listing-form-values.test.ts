import {
  listingCreateSchema,
  listingUpdateSchema,
  type Listing,
} from '@campus-books/common/listing.schemas';
import { activeCampus } from '@campus-books/common/active-campus';
import { describe, expect, it } from 'vitest';
import {
  listingFormValues,
  NEW_LISTING_VALUES,
  type EveryFormField,
  type ListingFormValues,
} from './listing-form-values';

describe('listing form values', () => {
  it('starts a new listing with the spec defaults: good, $20, no school checked', () => {
    expect(NEW_LISTING_VALUES).toMatchObject({
      condition: 'good',
      regularPrice: 20,
      schools: [],
      imageUrls: [],
    });
    // The form sends the list of the campus's keys, never the original API's one flag per school.
    for (const key of activeCampus().schoolKeys) expect(NEW_LISTING_VALUES).not.toHaveProperty(key);
  });

  it('refuses the untouched new form with the spec messages', () => {
    const result = listingCreateSchema.safeParse(NEW_LISTING_VALUES);
    const messages = result.error?.issues.map((issue) => issue.message);
    expect(messages).toEqual(
      expect.arrayContaining(['Name is required', 'You must upload at least one image']),
    );
  });

  const listing: Listing = {
    _id: 'l1',
    name: 'Organic Chemistry',
    courseNumber: '305',
    description: 'Clean copy',
    address: 'Library',
    pickupLocation: null,
    condition: 'excellent',
    regularPrice: 45.5,
    discountPrice: 0,
    imageUrls: ['/api/images/abc/1280.webp'],
    schools: ['ArtScience'],
    school: 'Arts & Sciences',
    major: 'Chemistry',
    type: 'sale',
    userRef: 'u1',
    status: 'active',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    Jepson: false,
    Bschool: false,
    Leadership: false,
    ArtScience: true,
    LawProfessional: false,
    isbn: '9780262033848',
    authors: null,
    edition: null,
    subject: 'CHEM',
    publisherCover: '/api/images/abc/1280.webp',
    expiresAt: '2026-01-31T10:00:00.000Z',
    confirmedAt: '2025-12-02T10:00:00.000Z',
    pendingUntil: null,
  };

  it('prefills the update form so that saving it unchanged is valid', () => {
    const values = listingFormValues(listing);
    const parsed = listingUpdateSchema.parse(values);
    expect(parsed).toMatchObject({
      name: 'Organic Chemistry',
      courseNumber: '305',
      condition: 'excellent',
      regularPrice: 45.5,
      schools: ['ArtScience'],
      imageUrls: ['/api/images/abc/1280.webp'],
      isbn: '9780262033848',
      authors: null,
      subject: 'CHEM',
      publisherCover: '/api/images/abc/1280.webp',
    });
    expect(values).not.toHaveProperty('pickupLocation');
    expect(values).not.toHaveProperty('ArtScience');
  });

  it('keeps only the schools the campus still has, which the form can show and the server accepts', () => {
    const values = listingFormValues({ ...listing, schools: ['Jepson', 'Retired', 'ArtScience'] });
    expect(values.schools).toEqual(['Jepson', 'ArtScience']);
    expect(listingUpdateSchema.safeParse(values).success).toBe(true);
  });

  it('names every field of the schema in its starting values: one left out is a compile error', () => {
    // The create form's starting values with every field present (as the module's `satisfies`
    // holds them), but the edition.
    const { edition: _edition, ...started } = NEW_LISTING_VALUES as Required<ListingFormValues>;
    // @ts-expect-error: the edition is neither started nor named as left out
    const withoutEdition: EveryFormField<'pickupLocation' | 'type' | 'publisherCover'> = started;
    expect(Object.keys(withoutEdition)).not.toContain('edition');
  });
});
