import { activeCampus } from '@campus-books/common/active-campus';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import sharp from 'sharp';
import { editionLabel } from '@campus-books/common/display';
import { IMAGE_WIDTHS, imageUrl, type ImageVariant } from '@campus-books/common/images';
import { listingCreateSchema } from '@campus-books/common/listing.schemas';
import { images, listings, users, type UserRow } from '../db/schema';
import { hashPassword } from '../features/accounts/password';
import { listingDeps } from '../features/listings/listing-deps';
import { createListing, markListingSold } from '../features/listings/listings.service';
import { imageFolder } from '../features/images/images.service';
import {
  DEMO_BOOKS,
  DEMO_DESCRIPTIONS,
  DEMO_PLACES,
  DEMO_SELLERS,
  type DemoBook,
} from './demo-catalogue';

/**
 * `npm run demo`: a believable campus to look around in, on its own data folder. Seeding is
 * idempotent: every account is found by its e-mail and every listing by its idempotency key, so a
 * second run adds only what a first run did not finish.
 */

export const DEMO_LISTINGS = 200;
export const DEMO_PASSWORD = 'campus-books-demo';
export const DEMO_DATA_DIR = './data-demo';
/** Written into the demo folder: the demo only ever seeds a folder that carries it (or an empty one). */
export const DEMO_MARKER = 'campus-books-demo';

export class DemoRefused extends Error {}

/**
 * The demo's data folder (DEMO_DATA_DIR, default ./data-demo), refused when it is the real DATA_DIR
 * (default ./data), lies inside it or holds it, or is a non-empty folder that is not a demo's.
 */
export function demoDataDir(env: Record<string, string | undefined>, cwd = process.cwd()): string {
  const demo = path.resolve(cwd, env.DEMO_DATA_DIR || DEMO_DATA_DIR);
  const real = path.resolve(cwd, env.DATA_DIR || './data');
  const inside = (a: string, b: string) => a === b || a.startsWith(b + path.sep);
  if (inside(demo, real) || inside(real, demo)) {
    throw new DemoRefused(
      `The demo never runs on the real data folder (${real}): set DEMO_DATA_DIR to another folder.`,
    );
  }
  if (existsSync(demo)) {
    const entries = readdirSync(demo);
    if (entries.length > 0 && !entries.includes(DEMO_MARKER)) {
      throw new DemoRefused(
        `${demo} holds data that is not a demo's: the demo only seeds an empty folder or its own.`,
      );
    }
  }
  return demo;
}

/** The domain of a campus that admits any school address: reserved for examples, no one's campus. */
const ANY_CAMPUS_DOMAIN = 'example.edu';

/** The demo account's e-mail, on the campus's own domain when one is configured. */
export function demoEmail(schoolEmailDomain: string | null): string {
  return `demo@${schoolEmailDomain ?? ANY_CAMPUS_DOMAIN}`;
}

/** A deterministic pseudo-random sequence, so every run of the demo makes the same campus. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A valid ISBN-13 (978 prefix, right check digit) for a demo book. */
export function demoIsbn(n: number): string {
  const first12 = `9780${String(1_000_000 + ((n * 7919) % 9_000_000)).padStart(8, '0')}`;
  let sum = 0;
  for (let i = 0; i < 12; i += 1) sum += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  return first12 + String((10 - (sum % 10)) % 10);
}

const escapeXml = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );

/** Splits a title into lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** A cover: the subject's colour, the title, the authors and the course, drawn as SVG. */
export async function drawCover(book: DemoBook, index: number): Promise<Buffer> {
  const hue = (book.subject.charCodeAt(0) * 47 + book.subject.charCodeAt(1) * 13) % 360;
  const lines = wrap(book.title, 16);
  const size = lines.length > 3 ? 44 : 52;
  const title = lines
    .map(
      (line, i) =>
        `<text x="60" y="${220 + i * (size + 12)}" font-size="${size}" font-weight="bold">${escapeXml(line)}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800">
    <rect width="600" height="800" fill="hsl(${hue},52%,${30 + (index % 3) * 6}%)"/>
    <rect x="0" y="0" width="28" height="800" fill="black" fill-opacity="0.25"/>
    <rect x="60" y="120" width="120" height="10" fill="white" fill-opacity="0.7"/>
    <g font-family="DejaVu Serif, Georgia, serif" fill="white">${title}</g>
    <text x="60" y="660" font-family="DejaVu Sans, sans-serif" font-size="28" fill="white">${escapeXml(book.authors)}</text>
    <text x="60" y="720" font-family="DejaVu Sans, sans-serif" font-size="24" fill="white" fill-opacity="0.8">${escapeXml(
      [editionLabel(book.edition), `${book.subject} ${book.courseNumber}`]
        .filter(Boolean)
        .join(' · '),
    )}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** The stored WebP variants of a cover, as the upload pipeline writes them (never enlarged). */
async function coverVariants(cover: Buffer): Promise<Map<ImageVariant, Buffer>> {
  const variants = new Map<ImageVariant, Buffer>();
  const full = await sharp(cover).webp({ quality: 80 }).toBuffer();
  for (const width of IMAGE_WIDTHS) {
    variants.set(
      width,
      width >= 600
        ? full
        : await sharp(cover).resize({ width }).webp({ quality: 75, effort: 4 }).toBuffer(),
    );
  }
  variants.set('full', full);
  return variants;
}

export interface DemoSeedResult {
  email: string;
  password: string;
  /** Listings this run created (0 when the campus was already complete). */
  created: number;
  listings: number;
}

async function ensureUser(
  app: FastifyInstance,
  person: { firstName: string; lastName: string; email: string; username: string },
  passwordHash: string,
): Promise<UserRow> {
  const { db } = app.database;
  await db
    .insert(users)
    .values({
      ...person,
      passwordHash,
      groupmelink: `https://groupme.com/contact/${person.username.toLowerCase().replace(/\W+/g, '')}`,
      emailVerifiedAt: new Date(),
    })
    .onConflictDoNothing();
  const [row] = await db.select().from(users).where(eq(users.email, person.email));
  return row!;
}

/**
 * Fills the database with the demo campus: the demo account, several sellers, `count` listings
 * across the campus's subjects (covers drawn and stored as the pipeline's WebP variants, ISBNs on
 * some, one in seven sold, listed over the last weeks).
 */
export async function seedDemo(
  app: FastifyInstance,
  options: { count?: number; now?: Date; log?: (line: string) => void } = {},
): Promise<DemoSeedResult> {
  const count = options.count ?? DEMO_LISTINGS;
  const now = options.now ?? new Date();
  const { db } = app.database;
  const domain = app.config.schoolEmailDomain ?? ANY_CAMPUS_DOMAIN;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const campus = activeCampus();
  // The campus's safe meetup spots, else places any campus has.
  const places =
    campus.meetupSpots.length > 0 ? campus.meetupSpots.map((s) => s.name) : DEMO_PLACES;

  const demo = await ensureUser(
    app,
    {
      firstName: 'Demo',
      lastName: 'Student',
      username: 'Demo Student',
      email: demoEmail(app.config.schoolEmailDomain),
    },
    passwordHash,
  );
  const sellers = [demo];
  for (const person of DEMO_SELLERS) {
    sellers.push(
      await ensureUser(
        app,
        {
          ...person,
          username: `${person.firstName} ${person.lastName[0]}.`,
          email: `${person.firstName}.${person.lastName}@${domain}`.toLowerCase(),
        },
        passwordHash,
      ),
    );
  }

  const existing = new Set(
    (
      await db
        .select({ userId: listings.userId, key: listings.idempotencyKey })
        .from(listings)
        .where(
          and(
            inArray(
              listings.userId,
              sellers.map((s) => s.id),
            ),
            isNotNull(listings.idempotencyKey),
          ),
        )
    ).map((row) => `${row.userId}/${row.key}`),
  );

  const covers = new Map<number, Map<ImageVariant, Buffer>>();
  let created = 0;
  for (let i = 0; i < count; i += 1) {
    const seller = sellers[i % sellers.length]!;
    const key = `demo-${i}`;
    if (existing.has(`${seller.id}/${key}`)) continue;
    const next = random(i + 1);
    const bookIndex = i % DEMO_BOOKS.length;
    const book = DEMO_BOOKS[bookIndex]!;

    let variants = covers.get(bookIndex);
    if (!variants) {
      variants = await coverVariants(await drawCover(book, bookIndex));
      covers.set(bookIndex, variants);
    }
    const imageId = randomUUID();
    for (const [variant, bytes] of variants) {
      await app.storage.put(`${imageFolder(imageId)}${variant}.webp`, bytes, 'image/webp');
    }
    const full = variants.get('full')!;
    await db.insert(images).values({
      id: imageId,
      ownerId: seller.id,
      status: 'ready',
      bytes: full.length,
      width: 600,
      height: 800,
    });

    const conditions = ['mint', 'excellent', 'good', 'good', 'poor'] as const;
    const condition = conditions[Math.floor(next() * conditions.length)]!;
    const fraction = { mint: 0.6, excellent: 0.5, good: 0.4, poor: 0.25 }[condition];
    const input = listingCreateSchema.parse({
      name: book.title,
      courseNumber: book.courseNumber,
      // The demo runs on any campus: a subject it does not teach is left out.
      subject: campus.subjectCodes.has(book.subject) ? book.subject : '',
      major: book.major,
      authors: book.authors,
      edition: book.edition ?? null,
      isbn: i % 3 === 0 ? demoIsbn(bookIndex) : null,
      condition,
      regularPrice: Math.max(5, Math.round(book.price * fraction * (0.8 + next() * 0.4))),
      description: DEMO_DESCRIPTIONS[Math.floor(next() * DEMO_DESCRIPTIONS.length)],
      pickupLocation: places[Math.floor(next() * places.length)],
      imageUrls: [imageUrl(imageId)],
      // Each subject's books for one of the campus's schools.
      schools: [campus.schoolKeys[book.subject.charCodeAt(0) % campus.schoolKeys.length]!],
    });
    const listing = await createListing(listingDeps(app), seller, input, key);
    // Listed over the last five weeks, so cards read "2 days ago", "3 weeks ago".
    const listedAt = new Date(now.getTime() - Math.floor(next() * 35 * 24 * 3600_000));
    await db
      .update(listings)
      .set({ createdAt: listedAt, updatedAt: listedAt })
      .where(eq(listings.id, listing.id));
    if (i % 7 === 3) await markListingSold(listingDeps(app), listing);
    created += 1;
    if (created % 50 === 0) options.log?.(`${created} listings`);
  }

  const total = await db.$count(
    listings,
    inArray(
      listings.userId,
      sellers.map((s) => s.id),
    ),
  );
  return { email: demo.email, password: DEMO_PASSWORD, created, listings: total };
}
