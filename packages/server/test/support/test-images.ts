import { crc32 } from 'node:zlib';
import sharp from 'sharp';

/** Test images made of real bytes (test support only). */

export const GPS_MARKER = 'CAMPUSGPS';
export const CAMERA_MARKER = 'CampusPhone';

/**
 * A phone-style 4000×3000 JPEG (about 1.6 MB, so it travels in several 256 KB chunks) stored
 * sideways with EXIF Orientation 6 (display rotated 90° clockwise) and a GPS block. Stored pixels:
 * reddish left half, bluish right half, under a photo-like texture; once oriented, red is on top.
 */
export async function phoneJpeg(): Promise<Buffer> {
  const [width, height] = [4000, 3000];
  const texture = await sharp({
    create: {
      width: 400,
      height: 300,
      channels: 3,
      background: '#000', // required by the types; noise replaces it
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .resize(width, height)
    .raw()
    .toBuffer();
  // Tint the texture pixel by pixel: reddish left half, bluish right half.
  for (let i = 0; i < texture.length; i += 3) {
    const isLeft = (i / 3) % width < width / 2;
    texture[i] = Math.min(255, texture[i]! * (isLeft ? 1.5 : 0.4));
    texture[i + 1] = texture[i + 1]! * 0.5;
    texture[i + 2] = Math.min(255, texture[i + 2]! * (isLeft ? 0.4 : 1.5));
  }
  return sharp(texture, { raw: { width, height, channels: 3 } })
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: CAMERA_MARKER, Model: 'Model 1' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '37/1 34/1 30/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '77/1 32/1 24/1',
        GPSMapDatum: GPS_MARKER,
      },
    })
    .jpeg({ quality: 82 })
    .toBuffer();
}

/**
 * An 800×600 PNG, opaque. WebP's tight encoding of the small variants (effort 6) costs about 1.3 s
 * of CPU per upload for an image with an alpha channel, against about 40 ms without one: the
 * tests whose point is not transparency upload this one.
 */
export const pngImage = () => png800x600({ r: 0, g: 128, b: 0, alpha: 1 }, 3);

/** An 800×600 PNG, half-transparent green: a PNG with an alpha channel is accepted too. */
export const transparentPngImage = () => png800x600({ r: 0, g: 128, b: 0, alpha: 0.5 }, 4);

const png800x600 = (
  background: { r: number; g: number; b: number; alpha: number },
  channels: 3 | 4,
) =>
  sharp({ create: { width: 800, height: 600, channels, background } })
    .png()
    .toBuffer();

export const webpImage = () =>
  sharp({ create: { width: 500, height: 400, channels: 3, background: '#336699' } })
    .webp()
    .toBuffer();

export const gifImage = () =>
  sharp({ create: { width: 300, height: 200, channels: 3, background: '#aa8800' } })
    .gif()
    .toBuffer();

export const textFile = () => Buffer.from('This is not a photo of a book, just text.\n'.repeat(20));

export const svgWithScript = () =>
  Buffer.from(
    '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">' +
      '<script>alert(document.cookie)</script><rect width="100" height="100"/></svg>',
  );

export const htmlFile = () =>
  Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');

/** A tiny valid PNG whose IHDR claims 30,000×30,000 pixels (a decompression bomb's header). */
export async function pngClaimingHugeSize(): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } })
      .png()
      .toBuffer(),
  );
  // Signature (8) + length (4) + "IHDR" (4): width and height follow, then 5 bytes, then the CRC.
  png.writeUInt32BE(30_000, 16);
  png.writeUInt32BE(30_000, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}
