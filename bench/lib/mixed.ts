import type { Request } from 'autocannon';
import { callRoute } from '@campus-books/common/call-route';
import { SeededRandom } from '../generate/random';

/** The 95 / 5 mix of the "mixed" scenario: reads as visitors make them, writes by one signed-in seller. */
const WRITE_SHARE = 0.05;
const READS = [
  (r: SeededRandom, ids: string[]) => `/api/listing/get/${r.pick(ids)}`,
  () => '/api/listing/get',
  () => '/api/listing/get?searchTerm=calculus',
  () => '/api/listing/get?condition=good&sort=regularPrice&order=asc',
  () => '/api/listing/get?startIndex=9',
] as const;

type Write = 'create' | 'update' | 'sold';
interface Expected {
  name: string;
  description: string;
  regularPrice: number;
  status: 'active' | 'sold';
}
interface SentWrite {
  kind: Write;
  id?: string;
  expected: Expected;
}

const EXTERNAL_IMAGE = 'https://images.campus-books.test/textbooks/bench.webp';

function listingBody(name: string, description: string, regularPrice: number, imageUrl: string) {
  return JSON.stringify({
    name,
    courseNumber: '221',
    description,
    condition: 'good',
    regularPrice,
    discountPrice: 0,
    imageUrls: [imageUrl],
    major: 'Mathematics',
    ArtScience: true,
  });
}

export interface WriteCheck {
  acknowledged: Record<Write, number>;
  verified: number;
  /** Acknowledged writes not found as acknowledged: each is a lost or wrong write. */
  missing: string[];
  /** The first refused writes (status and message), to explain errors. */
  refused: string[];
  /** Writes still unanswered when the run stopped: their outcome is unknown, so they are not checked. */
  unanswered: number;
}

/**
 * Tracks every write it sends. A listing is the target of at most one write at a time, so the last
 * acknowledged write of each listing is exactly what must be read back afterwards.
 */
export class MixedWorkload {
  private readonly random: SeededRandom;
  private readonly idle: string[];
  private readonly inFlight = new Set<string>();
  private readonly expected = new Map<string, Expected>();
  private readonly acknowledged: Record<Write, number> = { create: 0, update: 0, sold: 0 };
  private sequence = 0;
  private unansweredCreates = 0;
  private readonly refused: string[] = [];

  constructor(
    ownedIds: string[],
    private readonly readIds: string[],
    private readonly cookie: string,
    seed: number,
    /** The seller's own stored photos (the server accepts only own uploads); external URLs if none. */
    private readonly imageUrls: string[] = [],
  ) {
    this.idle = [...ownedIds];
    this.random = new SeededRandom(seed ^ 0x3b1e);
  }

  requests(): Request[] {
    return [
      {
        setupRequest: (req, context) => this.next(req, context as { sent?: SentWrite }),
        onResponse: (status, body, context) =>
          this.settle(status, body, context as { sent?: SentWrite }),
      },
    ];
  }

  private next(req: Request, context: { sent?: SentWrite }): Request {
    context.sent = undefined;
    if (!this.random.chance(WRITE_SHARE)) {
      return { ...req, method: 'GET', path: this.random.pick(READS)(this.random, this.readIds) };
    }
    this.sequence += 1;
    const marker = `bench write ${this.sequence}`;
    const regularPrice = 10 + (this.sequence % 90);
    const headers = { ...req.headers, cookie: this.cookie, 'content-type': 'application/json' };
    const kind: Write =
      this.idle.length === 0
        ? 'create'
        : this.random.weighted([
            ['create', 4],
            ['update', 4],
            ['sold', 2],
          ] as const);
    if (kind === 'create') {
      this.unansweredCreates += 1;
      const expected = {
        name: `Calculus ${marker}`,
        description: marker,
        regularPrice,
        status: 'active',
      } as const;
      context.sent = { kind, expected };
      return {
        ...req,
        method: 'POST',
        path: '/api/listing/create',
        headers,
        body: listingBody(expected.name, marker, regularPrice, this.imageUrl()),
      };
    }
    const id = this.idle.splice(this.random.int(0, this.idle.length - 1), 1)[0]!;
    this.inFlight.add(id);
    const before = this.expected.get(id);
    if (kind === 'update') {
      const expected = {
        name: `Statistics ${marker}`,
        description: marker,
        regularPrice,
        status: 'active',
      } as const;
      context.sent = { kind, id, expected };
      return {
        ...req,
        method: 'POST',
        path: `/api/listing/update/${id}`,
        headers,
        body: listingBody(expected.name, marker, regularPrice, this.imageUrl()),
      };
    }
    context.sent = {
      kind,
      id,
      expected: before ? { ...before, status: 'sold' } : ({ status: 'sold' } as Expected),
    };
    return {
      ...req,
      method: 'POST',
      path: `/api/listing/mark-as-sold/${id}`,
      // No body, so no JSON content type (the server rightly refuses an empty JSON body).
      headers: { ...req.headers, cookie: this.cookie },
      body: undefined,
    };
  }

  private imageUrl(): string {
    return this.imageUrls.length > 0 ? this.random.pick(this.imageUrls) : EXTERNAL_IMAGE;
  }

  private settle(status: number, body: string, context: { sent?: SentWrite }): void {
    const sent = context.sent;
    context.sent = undefined;
    if (!sent) return;
    const ok = status >= 200 && status < 300;
    if (!ok && this.refused.length < 10)
      this.refused.push(`${sent.kind} ${sent.id ?? ''} → ${status} ${body.slice(0, 200)}`);
    if (sent.kind === 'create') {
      this.unansweredCreates -= 1;
      if (!ok) return;
      const id = (JSON.parse(body) as { _id: string })._id;
      this.acknowledged.create += 1;
      this.expected.set(id, sent.expected);
      this.idle.push(id);
      return;
    }
    const id = sent.id!;
    this.inFlight.delete(id);
    if (!ok) return; // not applied: the previous expectation still holds
    this.acknowledged[sent.kind] += 1;
    this.expected.set(id, sent.expected);
    if (sent.kind === 'update') this.idle.push(id);
  }

  /** Reads back every listing with an acknowledged write and compares it with what was acknowledged. */
  async verify(baseUrl: string): Promise<WriteCheck> {
    const missing: string[] = [];
    let verified = 0;
    const entries = [...this.expected].filter(([id]) => !this.inFlight.has(id));
    for (let i = 0; i < entries.length; i += 20) {
      await Promise.all(
        entries.slice(i, i + 20).map(async ([id, want]) => {
          const res = await callRoute(baseUrl, 'GET /api/listing/get/:id', { params: { id } });
          const got = res.ok ? res.data : undefined;
          const same =
            got !== undefined &&
            got.status === want.status &&
            (want.name === undefined ||
              (got.name === want.name &&
                got.description === want.description &&
                got.regularPrice === want.regularPrice));
          if (same) verified += 1;
          else
            missing.push(
              `${id}: expected ${JSON.stringify(want)}, got ${res.status} ${JSON.stringify(got)}`,
            );
        }),
      );
    }
    return {
      acknowledged: { ...this.acknowledged },
      verified,
      missing,
      refused: [...this.refused],
      unanswered: this.inFlight.size + this.unansweredCreates,
    };
  }
}
