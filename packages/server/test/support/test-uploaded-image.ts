import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { IMAGE_WIDTHS, imageUrl } from '@campus-books/common/images';
import { images } from '../../src/db/schema';
import type { TestApp } from '../helpers';
import { imageFolder } from '../../src/features/images/images.service';

/**
 * Test support for other features: a processed upload owned by `userId`, as if sent over tus
 * (row `ready` and real WebP files), without the cost of a tus round trip. Returns its URL, which
 * listings' imageUrls and a user's avatar accept from that user.
 */
export async function createUploadedImage(t: TestApp, userId: string): Promise<string> {
  const id = randomUUID();
  const webp = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#456' } })
    .webp()
    .toBuffer();
  for (const variant of [...IMAGE_WIDTHS, 'full' as const]) {
    await t.app.storage.put(`${imageFolder(id)}${variant}.webp`, webp, 'image/webp');
  }
  await t.database.db
    .insert(images)
    .values({ id, ownerId: userId, status: 'ready', bytes: webp.length, width: 8, height: 8 });
  return imageUrl(id);
}
