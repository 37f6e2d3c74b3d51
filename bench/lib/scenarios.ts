import type { Request } from 'autocannon';
import type { SeedResult } from '../generate/seed';
import type { LoadSpec } from './load';
import type { MixedWorkload } from './mixed';
import type { BenchOptions } from './options';

export type ScenarioGroup = 'ceiling' | 'search' | 'by-id' | 'semester' | 'static' | 'mixed';

export interface ScenarioContext {
  seed: SeedResult;
  /** Path of the home page's main script, read from the served index.html. */
  mainScript: string | null;
  mixed: MixedWorkload | null;
  /** The bench seller's session cookie, or null when the sign-in failed. */
  cookie: string | null;
}

export interface Scenario {
  name: string;
  group: ScenarioGroup;
  description: string;
  /** The load, or null when the scenario cannot run (e.g. the web app is not built). */
  load(context: ScenarioContext): Omit<LoadSpec, 'url' | 'connections' | 'duration'> | null;
}

/** The addresses a rotating load turns over, by its request (the many-campus run warms each). */
const rotatingPaths = new WeakMap<Request, readonly string[]>();

const rotating = (paths: string[]): Request[] => {
  let i = 0;
  const request: Request = {
    setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length]! }),
  };
  rotatingPaths.set(request, paths);
  return [request];
};

/** Every address a scenario's load asks for: its one path, or the paths it turns over. */
export function addressesOf(load: Pick<LoadSpec, 'path' | 'requests'>): readonly string[] {
  if (load.path !== undefined) return [load.path];
  return (load.requests ?? []).flatMap((request) => rotatingPaths.get(request) ?? []);
}

const FILTER_QUERY = new URLSearchParams({
  condition: 'good',
  Bschool: 'true',
  major: 'Business Administration Finance',
  sort: 'regularPrice',
}).toString();

export const SCENARIOS: Scenario[] = [
  {
    name: 'health',
    group: 'ceiling',
    description: 'GET /api/health (server + database ping: the ceiling)',
    load: () => ({ path: '/api/health' }),
  },
  {
    name: 'search-default',
    group: 'search',
    description: 'GET /api/listing/get (newest 9 active listings)',
    load: () => ({ path: '/api/listing/get' }),
  },
  {
    name: 'search-misspelled',
    group: 'search',
    description: 'GET /api/listing/get?searchTerm=calclus (trigram similarity)',
    load: () => ({ path: '/api/listing/get?searchTerm=calclus' }),
  },
  {
    name: 'search-filtered',
    group: 'search',
    description: `GET /api/listing/get?${FILTER_QUERY}`,
    load: () => ({ path: `/api/listing/get?${FILTER_QUERY}` }),
  },
  {
    name: 'search-deep-page',
    group: 'search',
    description: 'GET /api/listing/get?startIndex=900',
    load: () => ({ path: '/api/listing/get?startIndex=900' }),
  },
  {
    name: 'search-isbn',
    group: 'search',
    description:
      'GET /api/listing/get?searchTerm=978-…: an ISBN typed with hyphens (200 ISBNs of the catalogue, in turn)',
    load: ({ seed }) => ({
      requests: rotating(
        seed.sampleIsbns.map(
          (isbn) =>
            `/api/listing/get?searchTerm=${isbn.slice(0, 3)}-${isbn.slice(3, 4)}-${isbn.slice(4, 12)}-${isbn.slice(12)}`,
        ),
      ),
    }),
  },
  {
    name: 'course-page',
    group: 'search',
    description:
      "GET /api/course/ECON-101: a course's books (200 courses of the catalogue, in turn)",
    load: ({ seed }) => ({
      requests: rotating(seed.sampleCourses.map((code) => `/api/course/${code}`)),
    }),
  },
  {
    name: 'my-courses',
    group: 'semester',
    description:
      "GET /api/my-courses/books?courses=…: five courses' books and cheapest copies, as /my-courses asks (groups of five of the catalogue's courses, in turn)",
    load: ({ seed }) => {
      const courses = seed.sampleCourses;
      const groups = Array.from({ length: Math.max(1, Math.floor(courses.length / 5)) }, (_, i) =>
        courses.slice(i * 5, i * 5 + 5),
      ).filter((group) => group.length > 0);
      return {
        requests: rotating(
          groups.map(
            (group) => `/api/my-courses/books?courses=${encodeURIComponent(group.join(','))}`,
          ),
        ),
      };
    },
  },
  {
    name: 'signed-in-session',
    group: 'by-id',
    description:
      "GET /api/auth/session with the bench seller's cookie: what a signed-in request pays first (the token's check and the session's row)",
    load: ({ cookie }) => (cookie ? { path: '/api/auth/session', headers: { cookie } } : null),
  },
  {
    name: 'listing-by-id',
    group: 'by-id',
    description: 'GET /api/listing/get/:id (1,000 ids drawn from the catalogue, in turn)',
    load: ({ seed }) => ({
      requests: rotating(seed.sampleListingIds.map((id) => `/api/listing/get/${id}`)),
    }),
  },
  {
    name: 'home-html',
    group: 'static',
    description: "GET /, a signed-out visitor's home page (server-rendered, kept in memory)",
    load: () => ({ path: '/' }),
  },
  {
    name: 'listing-html',
    group: 'static',
    description:
      "GET /listing/:id, a signed-out visitor's listing page: 50 listings in turn, as links shared in group chats are opened (each rendered once, then from memory)",
    load: ({ seed }) => ({
      requests: rotating(seed.sampleListingIds.slice(0, 50).map((id) => `/listing/${id}`)),
    }),
  },
  {
    name: 'course-html',
    group: 'static',
    description: "GET /course/ECON-101, a signed-out visitor's course page (200 courses, in turn)",
    load: ({ seed }) => ({
      requests: rotating(seed.sampleCourses.map((code) => `/course/${code}`)),
    }),
  },
  {
    name: 'search-html',
    group: 'static',
    description:
      "GET /search?searchTerm=…&status=active_or_none, a signed-out visitor's search page (the address the app writes)",
    load: () => ({
      requests: rotating(
        ['calculus', 'economics', 'biology', 'chemistry', 'statistics'].map(
          (term) => `/search?searchTerm=${term}&status=active_or_none`,
        ),
      ),
    }),
  },
  {
    name: 'home-main-script',
    group: 'static',
    description: "GET the home page's main script (the app's chunk, /assets/app-*.js)",
    load: ({ mainScript }) => (mainScript ? { path: mainScript, generator: 'wrk' } : null),
  },
  {
    name: 'mixed',
    group: 'mixed',
    description: '95% reads / 5% writes (create, update, mark as sold) by a signed-in seller',
    load: ({ mixed }) => (mixed ? { requests: mixed.requests() } : null),
  },
];

/** The pages students land on from a link, signed out: issue 33's budget holds each. */
/**
 * Whether a run measures a scenario: every one without `--scenarios`, else those it names, and health
 * always (the ceiling the others are read against).
 */
export const isScenarioSelected = (options: Pick<BenchOptions, 'scenarios'>, name: string) =>
  !options.scenarios || name === 'health' || options.scenarios.includes(name);

export const PAGE_SCENARIOS = ['home-html', 'listing-html', 'course-html', 'search-html'];

export const SEARCH_SCENARIOS = SCENARIOS.filter((s) => s.group === 'search').map((s) => s.name);

/**
 * The main script the home page loads: the largest of the code the page lists to hydrate with (the
 * app's chunk, /assets/app-*.js, React and the app's core, ~100 KB gzipped), not the small entry script
 * that fetches it; the entry when the page lists none (a build without server rendering).
 */
export async function findMainScript(baseUrl: string): Promise<string | null> {
  const res = await fetch(`${baseUrl}/`);
  if (!res.ok) return null;
  const html = await res.text();
  const listed = /<script type="application\/json" id="page-modules">([^<]*)<\/script>/.exec(
    html,
  )?.[1];
  const addresses = listed ? (JSON.parse(listed) as string[]) : [];
  let largest: { address: string; bytes: number } | null = null;
  for (const address of addresses) {
    const script = await fetch(`${baseUrl}${address}`);
    const bytes = (await script.arrayBuffer()).byteLength;
    if (script.ok && (!largest || bytes > largest.bytes)) largest = { address, bytes };
  }
  return largest?.address ?? /<script[^>]+type="module"[^>]+src="([^"]+)"/.exec(html)?.[1] ?? null;
}
