/**
 * Stored images and their URLs. An image URL in the API (a listing's imageUrls, a user's avatar) is a
 * plain string such as `/api/images/<id>/1280.webp`; every other variant is derived from it.
 */

/** Widths of the WebP variants the server stores for every image (never enlarged past the original). */
export const IMAGE_WIDTHS = [320, 640, 1280] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

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

const IMAGE_URL = /^\/api\/images\/([0-9a-f-]{36})\/(320|640|1280|full)\.webp$/;

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
