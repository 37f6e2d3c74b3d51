import sharp from 'sharp';

/** A small JPEG cover (a flat colour with a band), distinct per `seed`, a few KB. */
export async function bookCover(seed = Math.floor(Math.random() * 360)): Promise<Buffer> {
  const hue = seed % 360;
  return sharp({
    create: { width: 600, height: 800, channels: 3, background: `hsl(${hue}, 60%, 45%)` },
  })
    .composite([
      {
        input: { create: { width: 600, height: 120, channels: 3, background: '#f8fafc' } },
        top: 340,
        left: 0,
      },
    ])
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** Where the test's "phone" took its photo; the stored image must not say so. */
export const PHONE_GPS = { latitude: '37/1 34/1 1234/100', longitude: '77/1 32/1 0/1' };
export const PHONE_MAKE = 'E2ePhoneMaker';

/**
 * A phone-style photo: 4000×3000 JPEG of ~4 MB (a gradient with grain, so it compresses like a
 * photo) with EXIF camera and GPS tags.
 */
export async function phonePhoto(): Promise<Buffer> {
  const width = 4000;
  const height = 3000;
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const grain = (seed >> 16) & 47;
      const i = (y * width + x) * 3;
      pixels[i] = ((x * 255) / width + grain) & 255;
      pixels[i + 1] = ((y * 255) / height + grain) & 255;
      pixels[i + 2] = (((x + y) >> 4) + grain) & 255;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .withExif({
      IFD0: { Make: PHONE_MAKE, Model: 'E2e Phone 15' },
      // libvips numbers the GPS directory IFD3.
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: PHONE_GPS.latitude,
        GPSLongitudeRef: 'W',
        GPSLongitude: PHONE_GPS.longitude,
      },
    })
    .jpeg({ quality: 78 })
    .toBuffer();
}

/** Whether image bytes carry EXIF (or any trace of the phone's tags). */
export async function hasExif(bytes: Buffer): Promise<boolean> {
  const metadata = await sharp(bytes).metadata();
  return Boolean(metadata.exif) || bytes.includes(Buffer.from(PHONE_MAKE));
}
