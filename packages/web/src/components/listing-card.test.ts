import type { SearchedListing } from '@campus-books/common/consortium-listing';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ListingCard } from './listing-card';

const listing = {
  _id: '7f1e2d3c-0000-4000-8000-000000000001',
  name: 'thermodynamics',
  courseNumber: '201',
  description: '',
  address: '',
  pickupLocation: null,
  condition: 'good',
  regularPrice: 20,
  discountPrice: 0,
  imageUrls: ['/api/images/7f1e2d3c-0000-4000-8000-000000000002/1280.webp'],
  schools: [],
  school: '',
  major: '',
  type: 'sale',
  userRef: 'seller',
  status: 'active',
  createdAt: '2026-12-01T10:00:00.000Z',
  updatedAt: '2026-12-01T10:00:00.000Z',
  isbn: null,
  authors: null,
  edition: null,
  subject: 'CHEM',
  publisherCover: null,
  expiresAt: '2027-01-01T10:00:00.000Z',
  confirmedAt: '2026-12-01T10:00:00.000Z',
  pendingUntil: null,
} satisfies SearchedListing;

const render = (shown: SearchedListing) =>
  renderToStaticMarkup(
    createElement(
      StaticRouter,
      { location: '/search' },
      createElement(ListingCard, { listing: shown, sizes: '100vw' }),
    ),
  );

// Consortium sharing: a partner campus's listing in this campus's search.
describe("a partner campus's listing card", () => {
  const partner = {
    ...listing,
    campus: { key: 'beta', name: 'Beta University', url: 'https://books.beta.example.edu' },
  };

  it("names its campus and links to the listing on that campus's own site", () => {
    const html = render(partner);
    expect(html).toContain('Beta University');
    // The cover and the title; the course badge links to this campus's course page, as on any card.
    const links = [...html.matchAll(/href="([^"]+)"/g)]
      .map((m) => m[1])
      .filter((href) => !href?.startsWith('/course/'));
    expect(links).toEqual([
      `https://books.beta.example.edu/listing/${listing._id}`,
      `https://books.beta.example.edu/listing/${listing._id}`,
    ]);
  });

  it('offers no save button: a listing is saved on its own site', () => {
    expect(render(partner)).not.toMatch(/aria-label="[^"]*[Ss]ave/);
  });
});
