import { activeCampus } from '@campus-books/common/active-campus';
import { webPaths } from '@campus-books/common/paths';
import { conditionLabel, displayName, formatPrice } from '@campus-books/common/display';
import { imageSrcSet, imageVariantUrl, LISTING_PHOTO_SIZES } from '@campus-books/common/images';
import type { FastifyInstance } from 'fastify';
import type { ListingRow } from '../../db/schema';
import { escapeHtml } from '../../lib/html';
import type { PageHead } from '../../plugins/web-shell';
import { isVisibleTo } from './listing-visibility';
import { findListingById } from './listings.repository';

export type { PageHead };

/**
 * Open Graph and Twitter tags so a shared /listing/{id} link previews the book (product decisions),
 * and a preload of the page's main photo, its largest element: the browser fetches the right width
 * while it still loads the script that will render it.
 */
export function listingPageHead(listing: ListingRow, publicUrl: string): PageHead {
  const base = `${publicUrl}/`;
  const cover = listing.imageUrls[0];
  const name = displayName(listing.name);
  const meta: [string, string, string][] = [
    ['property', 'og:type', 'website'],
    ['property', 'og:site_name', activeCampus().productName],
    ['property', 'og:title', name],
    [
      'property',
      'og:description',
      `${formatPrice(Number(listing.regularPrice))} · ${conditionLabel(listing.condition)} condition`,
    ],
    ['property', 'og:url', `${publicUrl}${webPaths.listing.href(listing.id)}`],
    ...(cover
      ? [['property', 'og:image', new URL(cover, base).toString()] as [string, string, string]]
      : []),
    ['name', 'twitter:card', cover ? 'summary_large_image' : 'summary'],
  ];
  const srcSet = cover ? imageSrcSet(cover) : '';
  const preload = srcSet
    ? [
        `<link rel="preload" as="image" href="${escapeHtml(imageVariantUrl(cover!, 640))}" ` +
          `imagesrcset="${escapeHtml(srcSet)}" imagesizes="${escapeHtml(LISTING_PHOTO_SIZES)}" ` +
          `fetchpriority="high" />`,
      ]
    : [];
  return {
    title: `${name} · ${activeCampus().productName}`,
    tags: [
      ...meta.map(
        ([attr, key, value]) => `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`,
      ),
      ...preload,
    ].join('\n    '),
  };
}

/** The head of a listing's page, or undefined when there is no such listing. */
export async function findListingPageHead(
  app: FastifyInstance,
  id: string,
): Promise<PageHead | undefined> {
  const listing = await findListingById(app.database.db, id);
  // A hidden or removed listing (moderation) tells a shared link's preview nothing: a preview is
  // fetched by whoever the link was shared with, so it is read as by a visitor.
  if (!listing || !isVisibleTo(listing, null)) return undefined;
  return listingPageHead(listing, app.config.publicUrl);
}
