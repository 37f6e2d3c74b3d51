/**
 * Stored images and their URLs. An image URL in the API (a listing's imageUrls, a user's avatar) is a
 * plain string such as `/api/images/<id>/1280.webp`; every other variant is derived from it.
 */

/**
 * Widths of the WebP variants the server stores for every image (never enlarged past the original),
 * smallest first. 480 serves a card in a phone's two-column grid (160–190 CSS px at 2–3x), 960 a
 * listing's photo across a phone. Images stored before 480 and 960 existed lack those two files: the
 * image route then answers with the next larger variant (`imageVariantFallbacks`).
 */
export const IMAGE_WIDTHS = [320, 480, 640, 960, 1280] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

/** The widths added after images were first stored: an older image may lack their files. */
export const LATER_IMAGE_WIDTHS: readonly ImageWidth[] = [480, 960];

/** The width of the URL stored in imageUrls / avatar. */
export const DEFAULT_IMAGE_WIDTH: ImageWidth = 1280;

/** Long side of the processed full-size variant, and of the browser's downscale before upload. */
export const MAX_IMAGE_LONG_SIDE = 2560;

/** Images larger than this many pixels are refused before they are decoded. */
export const MAX_IMAGE_PIXELS = 40_000_000;

/** Uploads one user may start per hour. */
export const MAX_UPLOADS_PER_HOUR = 30;

/** Path of the tus endpoint (creation: POST here; an upload lives at `<endpoint>/<id>`). */
export const UPLOAD_ENDPOINT = '/api/uploads';

export const IMAGE_PATH_PREFIX = '/api/images/';

/** File names of the stored variants: one per width, and the processed full size. */
export type ImageVariant = ImageWidth | 'full';
export const IMAGE_VARIANTS: readonly ImageVariant[] = [...IMAGE_WIDTHS, 'full'];

/** The variants to try, in order, for a request of `variant`: itself, then every larger one. */
export function imageVariantFallbacks(variant: ImageVariant): ImageVariant[] {
  if (variant === 'full') return ['full'];
  return [...IMAGE_WIDTHS.filter((w) => w >= variant), 'full'];
}

const IMAGE_URL = new RegExp(`^/api/images/([0-9a-f-]{36})/(${IMAGE_VARIANTS.join('|')})\\.webp$`);

/** The image id of one of our image URLs (any variant), or null for anything else. */
export function imageIdFromUrl(url: string): string | null {
  const match = IMAGE_URL.exec(url);
  return match ? match[1]! : null;
}

/** URL of one variant of a stored image. */
export function imageUrl(id: string, variant: ImageVariant = DEFAULT_IMAGE_WIDTH): string {
  return `${IMAGE_PATH_PREFIX}${id}/${variant}.webp`;
}

/** The same image at another width; URLs that are not ours (e.g. older external ones) are returned as they are. */
export function imageVariantUrl(url: string, variant: ImageVariant): string {
  const id = imageIdFromUrl(url);
  return id ? imageUrl(id, variant) : url;
}

/** A `srcset` listing every width of one of our images; empty for other URLs (use `src` alone). */
export function imageSrcSet(url: string): string {
  const id = imageIdFromUrl(url);
  if (!id) return '';
  return IMAGE_WIDTHS.map((w) => `${imageUrl(id, w)} ${w}w`).join(', ');
}

/**
 * The `sizes` of a listing page's main photo (web image-gallery.tsx), shared with the server, which
 * preloads that photo from the page's HTML so the download starts before the app's script runs.
 * On a phone the photo fills the page less its padding, but is fetched for 85% of that width: where
 * the phone's density lands just past a variant, it takes that one rather than the next (a 412 px
 * phone at 1.75×: 640 px, 60 KB, instead of 960 px, 145 KB, on a slow network the page's largest
 * wait), still sharper than the screen's CSS pixels.
 */
export const LISTING_PHOTO_SIZES =
  '(min-width: 1152px) 544px, (min-width: 768px) calc(50vw - 32px), calc((100vw - 32px) * 0.85)';
