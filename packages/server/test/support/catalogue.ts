import sharp from 'sharp';
import { activeCampus } from '@campus-books/common/active-campus';
import { callRoute, dataOf } from '@campus-books/common/call-route';
import { appInjector } from '../api-caller';
import { listingBody } from '../listing-fixtures';
import type { TestApp, TestUser } from '../helpers';
import { uploadImage } from './tus-test-client';
import { addUser } from './ops-installations';

/** Test support: a generated catalogue of real users, real uploaded images and listings. */

const CONDITIONS = ['mint', 'excellent', 'good', 'poor'] as const;
const TITLES = ['Calculus', 'Organic Chemistry', 'Microeconomics', 'World History', 'Statistics'];

/** A distinct photo-like JPEG (noise differs per seed, so every image's bytes differ). */
export async function photo(seed: number): Promise<Buffer> {
  return sharp({
    create: {
      width: 480,
      height: 360,
      channels: 3,
      background: { r: (seed * 53) % 256, g: (seed * 97) % 256, b: (seed * 29) % 256 },
      noise: { type: 'gaussian', mean: 120 + (seed % 20), sigma: 30 },
    },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
}

export interface Catalogue {
  users: TestUser[];
  listingIds: string[];
  imageUrls: string[];
}

export interface CatalogueSize {
  users: number;
  listings: number;
  /** Real images uploaded through tus; listings of their owners show up to three of them. */
  images: number;
  log?: (line: string) => void;
}

/** Builds the catalogue through the API (uploads, create, mark as sold), as students would. */
export async function generateCatalogue(t: TestApp, size: CatalogueSize): Promise<Catalogue> {
  const users: TestUser[] = [];
  for (let i = 0; i < size.users; i += 1) users.push(await addUser(t));
  size.log?.(`${users.length} users`);

  const imagesOf = new Map<string, string[]>();
  for (let i = 0; i < size.images; i += 1) {
    const owner = users[i % users.length]!;
    const res = await uploadImage(t.app, owner.cookie, await photo(i));
    if (res.statusCode !== 200) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
    const url = res.json().url as string;
    imagesOf.set(owner.id, [...(imagesOf.get(owner.id) ?? []), url]);
    if ((i + 1) % 100 === 0) size.log?.(`${i + 1} images`);
  }

  // A listing may only show its seller's own uploads, so the sellers are the users who uploaded.
  const sellers = users.filter((u) => imagesOf.has(u.id));
  if (size.listings > 0 && sellers.length === 0) throw new Error('a catalogue needs images');
  const { majors } = activeCampus();
  const listingIds: string[] = [];
  for (let i = 0; i < size.listings; i += 1) {
    const seller = sellers[i % sellers.length]!;
    const own = imagesOf.get(seller.id)!;
    const first = i % own.length;
    const imageUrls = own.slice(first, first + 1 + (i % 3));
    const res = await callRoute(appInjector(t.app), 'POST /api/listing/create', {
      as: seller,
      body: listingBody({
        name: `${TITLES[i % TITLES.length]} volume ${i}`,
        courseNumber: String(100 + (i % 300)),
        condition: CONDITIONS[i % CONDITIONS.length],
        regularPrice: 5 + (i % 120),
        major: majors[i % majors.length]!.value,
        imageUrls,
      }),
    });
    if (res.status !== 201)
      throw new Error(`create failed: ${res.status} ${res.ok ? '' : res.text}`);
    const id = dataOf(res)._id;
    listingIds.push(id);
    if (i % 5 === 4) {
      const sold = await t.app.inject({
        method: 'POST',
        url: `/api/listing/mark-as-sold/${id}`,
        headers: { cookie: seller.cookie },
      });
      if (sold.statusCode !== 200) throw new Error(`mark sold failed: ${sold.body}`);
    }
    if ((i + 1) % 200 === 0) size.log?.(`${i + 1} listings`);
  }
  return { users, listingIds, imageUrls: [...imagesOf.values()].flat() };
}
