import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { imageUrl } from '@campus-books/common/images';
import type { Database } from '../../packages/server/src/db/database';
import { images } from '../../packages/server/src/db/schema';
import {
  processImage,
  type ProcessedVariant,
} from '../../packages/server/src/features/images/image-processing';
import { imageFolder } from '../../packages/server/src/features/images/images.service';
import { SeededRandom } from './random';

/** Distinct photos in the catalogue; listings share them (what matters is real bytes at real sizes). */
export const CATALOGUE_PHOTOS = 8;
const COLOURS = [
  '#7c2d12',
  '#1e3a8a',
  '#14532d',
  '#581c87',
  '#9a3412',
  '#0f766e',
  '#831843',
  '#3f3f46',
];

/** A phone-like photo of a textbook on a desk: noisy background, a coloured cover with a title. */
async function bookPhoto(random: SeededRandom, title: string): Promise<Buffer> {
  const [width, height] = [1200, 900];
  const colour = random.pick(COLOURS);
  const cover = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
      <rect x="340" y="90" width="520" height="720" rx="18" fill="${colour}"/>
      <rect x="340" y="90" width="30" height="720" fill="#000" opacity="0.25"/>
      <text x="600" y="320" font-family="serif" font-size="64" fill="#fff" text-anchor="middle">${title}</text>
      <text x="600" y="740" font-family="sans-serif" font-size="32" fill="#fde68a" text-anchor="middle">3rd Edition</text>
    </svg>`,
  );
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#b08d57',
      noise: { type: 'gaussian', mean: 150, sigma: 30 },
    },
  })
    .composite([{ input: cover }])
    .jpeg({ quality: 85 })
    .toBuffer();
}

/**
 * Stores real processed photos as if the owner had uploaded them: the server's own processing into
 * WebP variants, files where local storage keeps them (DATA_DIR/uploads), and `attached` image rows
 * owned by `ownerId` (so the owner may put them on new listings too). Returns their URLs.
 */
interface Photo {
  id: string;
  bytes: number;
  width: number;
  height: number;
  variants: ProcessedVariant[];
}

/** Processing is the slow part (sharp, seconds on a busy machine): done once per seed and process. */
const photosBySeed = new Map<number, Promise<Photo[]>>();

async function makePhotos(random: SeededRandom): Promise<Photo[]> {
  const photos: Photo[] = [];
  for (let i = 0; i < CATALOGUE_PHOTOS; i++) {
    const id = random.uuid();
    const photo = await bookPhoto(random, ['Calculus', 'Biology', 'Economics', 'History'][i % 4]!);
    const processed = await processImage(photo);
    photos.push({
      id,
      bytes: photo.length,
      width: processed.width,
      height: processed.height,
      variants: processed.variants,
    });
  }
  return photos;
}

/**
 * Stores real processed photos as if the owner had uploaded them: the server's own processing into
 * WebP variants, files where local storage keeps them (DATA_DIR/uploads), and `attached` image rows
 * owned by `ownerId` (so the owner may put them on new listings too). Returns their URLs.
 */
export async function storeCataloguePhotos(
  database: Database,
  options: { dataDir: string; ownerId: string; seed: number },
): Promise<string[]> {
  let photos = photosBySeed.get(options.seed);
  if (!photos) {
    photos = makePhotos(new SeededRandom(options.seed ^ 0x9407));
    photosBySeed.set(options.seed, photos);
  }
  const urls: string[] = [];
  for (const photo of await photos) {
    const folder = path.join(options.dataDir, 'uploads', imageFolder(photo.id));
    await mkdir(folder, { recursive: true });
    for (const variant of photo.variants) {
      await writeFile(path.join(folder, `${variant.name}.webp`), variant.data);
    }
    await database.db.insert(images).values({
      id: photo.id,
      ownerId: options.ownerId,
      status: 'attached',
      bytes: photo.bytes,
      width: photo.width,
      height: photo.height,
      attachedAt: new Date(),
    });
    urls.push(imageUrl(photo.id));
  }
  return urls;
}
