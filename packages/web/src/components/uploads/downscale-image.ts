import { MAX_IMAGE_BYTES } from '@campus-books/common/constants';
import { MAX_IMAGE_LONG_SIDE } from '@campus-books/common/images';

const QUALITIES = [0.9, 0.82, 0.74, 0.66];
const SHRINK_STEP = 0.8;

/** What the server stores as it is; another format the browser can decode (HEIC, BMP…) is converted. */
const SERVER_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif']);
/** Never rasterised here: the server refuses it with a clear message. */
const NOT_CONVERTED = new Set(['image/svg+xml']);

/**
 * Makes a phone photo fit the upload limits in the browser: an image over 2 MB or over 2,560 px on
 * its long side is redrawn upright (EXIF orientation applied) at most 2,560 px long and re-encoded
 * (WebP, else JPEG) until it is under 2 MB; so is a format the server does not take but the browser
 * reads (an iPhone's HEIC in Safari). Other files go as they are: the server judges them by their bytes.
 */
export async function prepareImageForUpload(file: File): Promise<Blob> {
  if (NOT_CONVERTED.has(file.type)) return file;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return file;
  }
  try {
    const longSide = Math.max(bitmap.width, bitmap.height);
    const isServerType = file.type === '' || SERVER_TYPES.has(file.type);
    if (isServerType && file.size <= MAX_IMAGE_BYTES && longSide <= MAX_IMAGE_LONG_SIDE)
      return file;

    let scale = Math.min(1, MAX_IMAGE_LONG_SIDE / longSide);
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const width = Math.max(1, Math.round(bitmap.width * scale));
      const height = Math.max(1, Math.round(bitmap.height * scale));
      for (const quality of QUALITIES) {
        const blob = await encode(bitmap, width, height, quality);
        if (blob && blob.size <= MAX_IMAGE_BYTES) return blob;
      }
      scale *= SHRINK_STEP;
    }
    return file;
  } finally {
    bitmap.close();
  }
}

async function encode(
  bitmap: ImageBitmap,
  width: number,
  height: number,
  quality: number,
): Promise<Blob | null> {
  const webp = await draw(bitmap, width, height, 'image/webp', quality);
  // Browsers that cannot write WebP silently give PNG: use JPEG there (on white, it has no alpha).
  if (webp?.type === 'image/webp') return webp;
  return draw(bitmap, width, height, 'image/jpeg', quality);
}

async function draw(
  bitmap: ImageBitmap,
  width: number,
  height: number,
  type: string,
  quality: number,
): Promise<Blob | null> {
  if (typeof OffscreenCanvas !== 'undefined') {
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d');
    if (!context) return null;
    paint(context, bitmap, width, height, type);
    return canvas.convertToBlob({ type, quality });
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) return null;
  paint(context, bitmap, width, height, type);
  return new Promise((resolve) => canvas.toBlob(resolve, type, quality));
}

function paint(
  context: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D,
  bitmap: ImageBitmap,
  width: number,
  height: number,
  type: string,
) {
  context.imageSmoothingQuality = 'high';
  if (type === 'image/jpeg') {
    context.fillStyle = '#fff';
    context.fillRect(0, 0, width, height);
  }
  context.drawImage(bitmap, 0, 0, width, height);
}
