import { describe, expect, it } from 'vitest';
import { CacheRoom } from '../campuses/campus-cache-scope';
import { compressPage, PageCache, pageBasis, readsTheSame, type CachedPage } from './page-cache';

const MINUTE = 60_000;

/** A page cache on a test's clock, and renders the test finishes when it wants. */
function pagesOnAClock() {
  // Not 0: lru-cache reads an entry started at 0 as one without a time.
  let now = 1_000_000;
  const pages = new PageCache({
    maxBytes: 1024 * 1024,
    ttlMs: MINUTE,
    room: new CacheRoom(64 * 1024 * 1024),
    now: () => now,
  });
  const renders: {
    path: string;
    kept: CachedPage | undefined;
    finish: (page: CachedPage | null) => void;
  }[] = [];
  const ask = (path: string) =>
    pages.page(
      path,
      1,
      (kept) =>
        new Promise<CachedPage | null>((finish) => {
          renders.push({ path, kept, finish });
        }),
    );
  const version = (text: string) => compressPage(`<p>${text}</p>`, 200);
  const bodyOf = (page: CachedPage | null) => page?.etags.identity;
  return {
    pages,
    renders,
    ask,
    version,
    bodyOf,
    later: (ms: number) => {
      now += ms;
    },
  };
}

/** Lets the renders lru-cache starts in the background begin. */
const settled = () => new Promise((done) => setImmediate(done));

describe('PageCache: a page past its time', () => {
  it('is answered as it is while it renders again in the background, then the new one is', async () => {
    const c = pagesOnAClock();
    const first = c.ask('/course/ECON-101');
    c.renders[0]!.finish(await c.version('one student is looking'));
    const one = await first;

    c.later(MINUTE + 1);
    // The visitor gets the page kept, at once; one render of it starts.
    expect(c.bodyOf(await c.ask('/course/ECON-101'))).toBe(one!.etags.identity);
    expect(c.bodyOf(await c.ask('/course/ECON-101'))).toBe(one!.etags.identity);
    await settled();
    expect(c.renders.map((r) => r.path)).toEqual(['/course/ECON-101', '/course/ECON-101']);

    const two = await c.version('two students are looking');
    c.renders[1]!.finish(two);
    await settled();
    expect(c.bodyOf(await c.ask('/course/ECON-101'))).toBe(two.etags.identity);
    expect(c.renders).toHaveLength(2);
  });

  it('renders again one at a time, spaced: the others are answered as they are and wait their turn', async () => {
    const c = pagesOnAClock();
    const paths = ['/course/A-1', '/course/B-2', '/course/C-3'];
    const kept = new Map<string, string>();
    for (const path of paths) {
      const asked = c.ask(path);
      const page = await c.version(`${path} then`);
      c.renders.at(-1)!.finish(page);
      await asked;
      kept.set(path, page.etags.identity);
    }
    c.later(MINUTE + 1);
    // All three are past their time: each is answered as kept; only the first renders.
    for (const path of paths) expect(c.bodyOf(await c.ask(path))).toBe(kept.get(path));
    await settled();
    expect(c.renders.slice(3).map((r) => r.path)).toEqual(['/course/A-1']);

    // While it renders, and just after it, the second waits its turn.
    expect(c.bodyOf(await c.ask('/course/B-2'))).toBe(kept.get('/course/B-2'));
    const fresh = await c.version('A now');
    c.renders[3]!.finish(fresh);
    await c.pages.settled();
    expect(c.bodyOf(await c.ask('/course/B-2'))).toBe(kept.get('/course/B-2'));
    await settled();
    expect(c.renders).toHaveLength(4);
    // Its turn comes once the spacing since the last began is over.
    c.later(100);
    expect(c.bodyOf(await c.ask('/course/B-2'))).toBe(kept.get('/course/B-2'));
    await settled();
    expect(c.renders.slice(4).map((r) => r.path)).toEqual(['/course/B-2']);
    expect(c.bodyOf(await c.ask('/course/A-1'))).toBe(fresh.etags.identity);
  });

  it('keeps the page it had when a render of it again fails', async () => {
    const c = pagesOnAClock();
    const asked = c.ask('/listing/1');
    const page = await c.version('kept');
    c.renders[0]!.finish(page);
    await asked;
    c.later(MINUTE + 1);
    expect(c.bodyOf(await c.ask('/listing/1'))).toBe(page.etags.identity);
    await settled();
    c.renders[1]!.finish(null);
    await settled();
    expect(c.bodyOf(await c.ask('/listing/1'))).toBe(page.etags.identity);
  });

  it('is never answered once the catalogue changed: the next visitor waits for the new render', async () => {
    const c = pagesOnAClock();
    const asked = c.ask('/listing/1');
    c.renders[0]!.finish(await c.version('before'));
    await asked;
    c.later(MINUTE + 1);
    // Generation 2: the catalogue moved since.
    const after = c.pages.page(
      '/listing/1',
      2,
      () =>
        new Promise<CachedPage | null>((finish) => {
          c.renders.push({ path: '/listing/1', kept: undefined, finish });
        }),
    );
    let answered = false;
    void after.then(() => (answered = true));
    await settled();
    expect(answered).toBe(false);
    const page = await c.version('after');
    c.renders[1]!.finish(page);
    expect(c.bodyOf(await after)).toBe(page.etags.identity);
  });

  it('keeps itself when a render would read the same, for another full time', async () => {
    const c = pagesOnAClock();
    const asked = c.ask('/course/ECON-101');
    expect(c.renders[0]!.kept).toBeUndefined();
    const page = await c.version('unchanged');
    c.renders[0]!.finish(page);
    await asked;
    c.later(MINUTE + 1);
    expect(await c.ask('/course/ECON-101')).toBe(page);
    await settled();
    // The render is handed the page kept, and answers it: kept as it is, ETags and all.
    expect(c.renders[1]!.kept).toBe(page);
    c.renders[1]!.finish(page);
    await c.pages.settled();
    await settled();
    c.later(MINUTE - 1);
    expect(await c.ask('/course/ECON-101')).toBe(page);
    await settled();
    expect(c.renders).toHaveLength(2);
    c.later(2);
    await c.ask('/course/ECON-101');
    await settled();
    expect(c.renders).toHaveLength(3);
  });
});

describe('pageBasis and readsTheSame: whether a page would read otherwise', () => {
  const DAY = 24 * 3600_000;
  const at = Date.parse('2026-12-07T12:00:00.000Z');
  const data = (createdAt: string, price = 20) => JSON.stringify({ price, createdAt });
  const withBasis = async (basis: ReturnType<typeof pageBasis>) =>
    compressPage('<p>a page</p>', 200, basis);

  it('reads the same from the same inputs until a date in it reads anew', async () => {
    // Listed 3 days and 2 hours before: "3 days ago" until the fourth day is full.
    const listed = new Date(at - 3 * DAY - 2 * 3600_000).toISOString();
    const basis = pageBasis(['<html>shell</html>'], data(listed), at);
    expect(basis.readsTrueUntil).toBe(at + DAY - 2 * 3600_000);
    const kept = await withBasis(basis);
    const later = at + 3600_000;
    expect(readsTheSame(kept, pageBasis(['<html>shell</html>'], data(listed), later), later)).toBe(
      true,
    );
    const dayAfter = basis.readsTrueUntil;
    expect(
      readsTheSame(kept, pageBasis(['<html>shell</html>'], data(listed), dayAfter), dayAfter),
    ).toBe(false);
  });

  it('reads otherwise when any input differs: its data, its shell, or unknown for a page without one', async () => {
    const listed = '2025-01-01T00:00:00.000Z';
    const kept = await withBasis(pageBasis(['shell', 'config'], data(listed), at));
    expect(readsTheSame(kept, pageBasis(['shell', 'config'], data(listed, 19), at), at)).toBe(
      false,
    );
    expect(readsTheSame(kept, pageBasis(['shell 2', 'config'], data(listed), at), at)).toBe(false);
    expect(readsTheSame(kept, pageBasis(['shellconfig', ''], data(listed), at), at)).toBe(false);
    const unknown = await compressPage('<p>a page</p>', 200);
    expect(readsTheSame(unknown, pageBasis(['shell', 'config'], data(listed), at), at)).toBe(false);
  });

  it('takes the earliest of the dates in its data, and never a date-like text that is not one', () => {
    const json = JSON.stringify({
      listings: [
        { createdAt: new Date(at - 10 * 60_000).toISOString() },
        { createdAt: new Date(at - 5 * 60_000 - 30_000).toISOString() },
      ],
      description: 'Bought 2024-01-01, barely used',
    });
    // 5 minutes and a half ago: "5 minutes ago" for 30 s more.
    expect(pageBasis([], json, at).readsTrueUntil).toBe(at + 30_000);
    expect(pageBasis([], JSON.stringify({ description: 'no dates' }), at).readsTrueUntil).toBe(
      Infinity,
    );
  });
});
