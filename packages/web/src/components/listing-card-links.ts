import type { ListingCampus } from '@campus-books/common/consortium-listing';

/**
 * The address of one of the web app's pages (`path`, from `paths`) on a partner campus's own site
 * (consortium sharing): its listings, course pages and accounts live there, not on this campus,
 * where the same path names another listing or another course, or nothing. Null when the campus's
 * address is not a web address: the card then shows the text without a link.
 */
export function partnerHref(campus: ListingCampus, path: string): string | null {
  let site: URL;
  try {
    site = new URL(campus.url);
  } catch {
    return null;
  }
  if (site.protocol !== 'https:' && site.protocol !== 'http:') return null;
  // The address as the partner states it (a site may live under a folder), without a closing slash.
  return `${campus.url.replace(/\/+$/, '')}${path}`;
}
