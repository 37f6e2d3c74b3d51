import type { Request } from 'autocannon';
import { describe, expect, it } from 'vitest';
import {
  bestRound,
  compareCampusRuns,
  connectionsBounded,
  memoryPerIdleCampusMb,
  renderCampusTable,
  roundOrder,
  spreadOverHosts,
  type SetupRequest,
} from './campus-budgets';
import { benchCampusHost, benchCampusKeys } from './campuses';
import { parseOptions } from './options';
import type { ScenarioRow } from './results';

const row = (scenario: string, requestsPerSecond: number, p99: number, errors = 0) =>
  ({ scenario, requestsPerSecond, p99, errors }) as ScenarioRow;

describe('the many-campus budgets', () => {
  it('holds a scenario within 0.8 × req/s and 1.25 × p99 of one campus, and fails past either', () => {
    const single = [
      row('health', 5000, 10),
      row('search-default', 1000, 40),
      row('course-page', 800, 50),
    ];
    const many = [
      row('health', 2000, 30),
      row('search-default', 800, 50),
      row('course-page', 790, 63),
    ];
    const [health, search, course] = compareCampusRuns(single, many);
    expect(health).toMatchObject({ budgeted: false, rpsRatioToHealth: 1 });
    expect(search).toMatchObject({ rpsRatio: 0.8, p99Ratio: 1.25, ok: true });
    // Health ran at 0.4 × in the second phase: the search's 0.8 × is twice health's, shown, not budgeted.
    expect(search!.rpsRatioToHealth).toBeCloseTo(2);
    expect(course!.p99Ratio).toBeCloseTo(1.26);
    expect(course!.ok).toBe(false);
    const slower = compareCampusRuns(
      [row('search-default', 1000, 40)],
      [row('search-default', 799, 40)],
    );
    expect(slower[0]!.ok).toBe(false);
  });

  it('fails a scenario with errors or without answers, and leaves out one run only', () => {
    const [errors] = compareCampusRuns([row('a', 100, 10)], [row('a', 100, 10, 3)]);
    expect(errors!.ok).toBe(false);
    const [silent] = compareCampusRuns([row('a', 100, 10)], [row('a', 0, NaN)]);
    expect(silent!.ok).toBe(false);
    expect(compareCampusRuns([row('a', 100, 10)], [row('b', 100, 10)])).toEqual([]);
    expect(renderCampusTable([silent!], 100, 10_000)).toContain('| a | 100 | 10.0 | 0 | — |');
    // Without health, no ratio to it.
    expect(silent!.rpsRatioToHealth).toBeNaN();
  });

  it('works out the memory per idle campus and whether connections stay within the pool', () => {
    const one = { campuses: 1, rssMb: 200, pooled: 12, listening: 1 };
    const many = { campuses: 101, rssMb: 250, pooled: 30, listening: 1 };
    expect(memoryPerIdleCampusMb(one, many)).toBeCloseTo(0.5);
    expect(connectionsBounded(one, many, 30)).toBe(true);
    expect(connectionsBounded(one, { ...many, pooled: 31 }, 30)).toBe(false);
    expect(connectionsBounded(one, { ...many, listening: 2 }, 30)).toBe(false);
  });
});

describe('the load spread over the campuses', () => {
  const sent = (requests: Request[], count: number) => {
    const out: { path: string; host: string }[] = [];
    for (let i = 0; i < count; i += 1) {
      const request = requests[i % requests.length]!;
      const built = (request.setupRequest as SetupRequest)(
        { path: '/', headers: { accept: '*/*' } } as never,
        {},
      ) as {
        path: string;
        headers: Record<string, string>;
      };
      out.push({ path: built.path, host: built.headers.host! });
    }
    return out;
  };

  it("sends a fixed path to every campus's host, keeping the other headers", () => {
    const hosts = benchCampusKeys(10).map(benchCampusHost);
    const requests = spreadOverHosts({ path: '/api/listing/get' }, hosts);
    const built = sent(requests, 2000);
    expect(new Set(built.map((b) => b.path))).toEqual(new Set(['/api/listing/get']));
    const counts = hosts.map((h) => built.filter((b) => b.host === h).length);
    expect(Math.min(...counts)).toBeGreaterThan(120);
    const first = (requests[0]!.setupRequest as SetupRequest)(
      { path: '/', headers: { accept: '*/*' } } as never,
      {},
    );
    expect((first as { headers: Record<string, string> }).headers.accept).toBe('*/*');
  });

  it("keeps a rotating scenario's paths in their order while the hosts vary", () => {
    let i = 0;
    const paths = ['/a', '/b', '/c'];
    const rotating: Request[] = [
      { setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length]! }) },
    ];
    const built = sent(spreadOverHosts({ requests: rotating }, ['x.example', 'y.example']), 6);
    expect(built.map((b) => b.path)).toEqual(['/a', '/b', '/c', '/a', '/b', '/c']);
    expect(new Set(built.map((b) => b.host)).size).toBe(2);
  });
});

describe('--campuses', () => {
  it('names the campuses c001… at c001.bench.example…', () => {
    expect(benchCampusKeys(100).slice(0, 2)).toEqual(['c001', 'c002']);
    expect(benchCampusKeys(100).at(-1)).toBe('c100');
    expect(benchCampusKeys(4000).at(-1)).toBe('c4000');
    expect(benchCampusHost('c007')).toBe('c007.bench.example');
  });

  it('runs on PostgreSQL with one size, 10,000 listings unless told', () => {
    expect(parseOptions(['--campuses', '100'])).toMatchObject({
      campuses: 100,
      sizes: [10_000],
      engines: ['postgres'],
      isFullRun: false,
    });
    expect(parseOptions(['--campuses', '10', '--sizes', '1000']).sizes).toEqual([1000]);
    expect(parseOptions([]).campuses).toBeNull();
    expect(() => parseOptions(['--campuses', '1'])).toThrow(/--campuses/);
    expect(() => parseOptions(['--campuses', '10', '--sizes', '1000,10000'])).toThrow(/one size/);
    expect(() => parseOptions(['--campuses', '10', '--engines', 'pglite'])).toThrow(
      /PostgreSQL only/,
    );
  });
});

describe('the side-by-side rounds', () => {
  it('swaps which side runs first every round', () => {
    expect([0, 1, 2, 3].map(roundOrder)).toEqual([
      [0, 1],
      [1, 0],
      [0, 1],
      [1, 0],
    ]);
  });

  it("keeps a side's round with the most requests a second, preferring rounds without errors", () => {
    expect(bestRound([row('search', 900, 30), row('search', 1100, 35)]).requestsPerSecond).toBe(
      1100,
    );
    expect(bestRound([row('search', 1200, 30, 3), row('search', 1000, 35)]).requestsPerSecond).toBe(
      1000,
    );
    expect(bestRound([row('search', 1200, 30, 3), row('search', 1000, 35, 1)]).errors).toBe(3);
    expect(() => bestRound([])).toThrow('no round');
  });
});
