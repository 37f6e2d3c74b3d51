import type { SearchedListing } from '@campus-books/common/consortium-listing';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { CourseBadge } from './course-badge';
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

const hrefsOf = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
const srcOf = (html: string) => /<img[^>]* src="([^"]+)"/.exec(html)?.[1];

// This campus's card needs a session (its save button); its course badge is the one it shows.
describe("this campus's course badge", () => {
  it("links to this site's course page", () => {
    const html = renderToStaticMarkup(
      createElement(
        StaticRouter,
        { location: '/search' },
        createElement(CourseBadge, { subject: 'CHEM', courseNumber: '201' }),
      ),
    );
    expect(hrefsOf(html)).toEqual(['/course/CHEM-201']);
    expect(html).toContain('aria-label="Course CHEM 201: every copy on campus"');
  });
});

// Consortium sharing: a partner campus's listing in this campus's search.
describe("a partner campus's listing card", () => {
  const beta = { key: 'beta', name: 'Beta University', url: 'https://books.beta.example.edu' };
  const partner = { ...listing, campus: beta };

  it("names its campus and links its cover, title and course badge to that campus's own site", () => {
    const html = render(partner);
    expect(html).toContain('Beta University');
    // The course number is the partner's: this campus's /course/CHEM-201 is another course or none.
    expect(hrefsOf(html)).toEqual([
      `https://books.beta.example.edu/listing/${listing._id}`,
      `https://books.beta.example.edu/listing/${listing._id}`,
      'https://books.beta.example.edu/course/CHEM-201',
    ]);
    expect(html).toContain('aria-label="Course CHEM 201: every copy at Beta University"');
  });

  it('keeps the folder of a partner site that lives under one, without doubling a slash', () => {
    const html = render({
      ...partner,
      campus: { ...beta, url: 'https://beta.example.edu/books/' },
    });
    expect(hrefsOf(html)).toEqual([
      `https://beta.example.edu/books/listing/${listing._id}`,
      `https://beta.example.edu/books/listing/${listing._id}`,
      'https://beta.example.edu/books/course/CHEM-201',
    ]);
  });

  it("links nowhere when the partner's address is not a web address", () => {
    for (const url of ['', 'books.beta.example.edu', 'javascript:alert(1)']) {
      const html = render({ ...partner, campus: { ...beta, url } });
      expect(hrefsOf(html), url).toEqual([]);
      // Its name, title and course still show, as text.
      expect(html).toContain('Beta University');
      expect(html).toContain('CHEM 201');
      expect(html).toMatch(/<h3[^>]*><span[^>]*>Thermodynamics<\/span><\/h3>/i);
    }
  });

  it("shows its cover from this site, whose image route serves a partner's covers", () => {
    expect(srcOf(render(partner))).toBe(
      '/api/images/7f1e2d3c-0000-4000-8000-000000000002/640.webp',
    );
  });

  it('offers no save button: a listing is saved on its own site', () => {
    expect(render(partner)).not.toMatch(/aria-label="[^"]*[Ss]ave/);
  });
});
