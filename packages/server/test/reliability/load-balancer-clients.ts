import { eq } from 'drizzle-orm';
import { imageUrl } from '@campus-books/common/images';
import { callRoute } from '@campus-books/common/call-route';
import type { Database } from '../../src/db/database';
import { listings } from '../../src/db/schema';
import { listingBody } from '../listing-fixtures';

/** What the load balancer's clients need: its address, the database, the seller and their photo. */
export interface BalancerWorld {
  base: string;
  database: Database;
  seller: { id: string; email: string; cookie: string };
  imageId: string;
}

/**
 * The requests of the load-balancer test (load-balancer.ts), all through HAProxy: sign-in, a
 * listing's rename, a search, and the mixed load of several clients. `c` gives the world once the
 * suite's set-up has made it.
 */
export function balancerClients(c: () => BalancerWorld) {
  async function signIn(email: string, password: string): Promise<string> {
    const res = await fetch(`${c().base}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
    return res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
  }

  /** The edit form's body for the seller's listing, renamed. */
  const renamedBody = (name: string) =>
    listingBody({ name, description: 'Barely used.', imageUrls: [imageUrl(c().imageId)] });

  async function newListing(name: string): Promise<string> {
    const { database, seller, imageId } = c();
    const [row] = await database.db
      .insert(listings)
      .values({
        userId: seller.id,
        name,
        courseNumber: '211',
        condition: 'good',
        regularPrice: 20,
        imageUrls: [imageUrl(imageId)],
      })
      .returning({ id: listings.id });
    return row!.id;
  }

  const rename = (id: string, name: string) =>
    fetch(`${c().base}/api/listing/update/${id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: c().seller.cookie },
      body: JSON.stringify(renamedBody(name)),
    });

  const search = async (term: string) => {
    const res = await callRoute(c().base, 'GET /api/listing/get', { query: { searchTerm: term } });
    if (!res.ok) throw new Error(`search failed: ${res.status}`);
    const names = res.data.map((l) => l.name);
    return { names, server: res.headers.get('x-served-by') };
  };

  /**
   * Mixed load until `stop` resolves: each client renames its own listing (a write, numbered),
   * searches, and reads listings. Counts client-visible failures and remembers the last
   * acknowledged write of each client.
   */
  async function mixedLoad(stop: Promise<void>, clientCount: number) {
    let stopped = false;
    void stop.then(() => (stopped = true));
    const stats = {
      requests: 0,
      failures: 0,
      writes: 0,
      failureKinds: new Map<string, number>(),
    };
    const clients = await Promise.all(
      Array.from({ length: clientCount }, async (_, c) => ({
        id: await newListing(`Load client${c}n0`),
        acked: 0,
        sent: 0,
        c,
      })),
    );
    const fail = (kind: string) => {
      stats.failures += 1;
      stats.failureKinds.set(kind, (stats.failureKinds.get(kind) ?? 0) + 1);
    };
    await Promise.all(
      clients.map(async (client) => {
        let step = 0;
        while (!stopped) {
          step += 1;
          stats.requests += 1;
          try {
            if (step % 3 === 0) {
              client.sent += 1;
              const n = client.sent;
              const res = await rename(client.id, `Load client${client.c}n${n}`);
              if (res.ok) {
                client.acked = n;
                stats.writes += 1;
              } else fail(`write ${res.status}`);
              await res.body?.cancel();
            } else if (step % 3 === 1) {
              const res = await fetch(`${c().base}/api/listing/get?searchTerm=load`);
              if (!res.ok) fail(`search ${res.status}`);
              await res.body?.cancel();
            } else {
              const res = await fetch(`${c().base}/api/listing/get/${client.id}`);
              if (!res.ok) fail(`read ${res.status}`);
              await res.body?.cancel();
            }
          } catch (error) {
            fail(`network ${(error as Error).cause ?? (error as Error).message}`);
          }
        }
      }),
    );
    // Every acknowledged write is in the database (a later one, unacknowledged, may have landed).
    let lost = 0;
    for (const client of clients) {
      const [row] = await c()
        .database.db.select({ name: listings.name })
        .from(listings)
        .where(eq(listings.id, client.id));
      const n = Number(/n(\d+)$/.exec(row!.name)![1]);
      if (n < client.acked) lost += 1;
    }
    return { ...stats, lost };
  }

  return { signIn, newListing, rename, search, mixedLoad };
}
