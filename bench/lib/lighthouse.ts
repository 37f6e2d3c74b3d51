import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';

const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const CLI = new URL('../node_modules/lighthouse/cli/index.js', import.meta.url).pathname;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

/** The page whose images the image budget is about: a page of search results (9 cards). */
export const IMAGE_BUDGET_PAGE = '/search';
/** The budget's phone: 375 × 667 CSS px at 2 device pixels per CSS pixel. */
export const IMAGE_BUDGET_SCREEN = { width: 375, height: 667, deviceScaleFactor: 2 } as const;

/** What the search page downloads as images on the budget's phone. */
export interface ImageBytesReport {
  screen: typeof IMAGE_BUDGET_SCREEN;
  /** Image requests to the server (each distinct cover once: a card repeating a photo costs nothing). */
  requests: number;
  /** Their bytes as sent. */
  transferBytes: number;
  /** The variant widths asked for, e.g. { '480': 6 }: shows which one `sizes` made the phone pick. */
  variants: Record<string, number>;
  error?: string;
}

export interface PageReport {
  page: string;
  url: string;
  /** 0–100 per category. */
  scores: Record<(typeof CATEGORIES)[number], number>;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Scripts and stylesheets the page loaded, gzip-compressed here (level 6), in bytes. */
  jsGzipBytes: number;
  cssGzipBytes: number;
  /** The same as sent over the wire (compressed only if the server compressed). */
  jsTransferBytes: number;
  cssTransferBytes: number;
  /** Failed audits of the categories that are not perfect, to say why. */
  failedAudits: string[];
  /** What the performance metrics point at: layout shifts, the LCP element, compression, render blocking. */
  diagnostics: string[];
  /** Each run's TBT in ms, in the order run (the figure above is their median). */
  tbtRunsMs: number[];
  /** Set when Lighthouse could not audit the page (twice); the scores are then 0. */
  error?: string;
  /** Only for IMAGE_BUDGET_PAGE: a second load on the budget's phone, counting image bytes. */
  images?: ImageBytesReport;
}

interface Lhr {
  finalDisplayedUrl?: string;
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<
    string,
    {
      title: string;
      score: number | null;
      numericValue?: number;
      scoreDisplayMode?: string;
      details?: {
        items?: {
          url: string;
          resourceType?: string;
          transferSize?: number;
          description?: string;
          node?: { snippet?: string; selector?: string };
          score?: number;
          wastedBytes?: number;
          wastedMs?: number;
        }[];
      };
    }
  >;
}

const DIAGNOSTICS = [
  'layout-shifts',
  'largest-contentful-paint-element',
  'uses-text-compression',
  'render-blocking-resources',
  'unused-javascript',
  'bootup-time',
] as const;

function diagnosticsOf(lhr: Lhr): string[] {
  return DIAGNOSTICS.flatMap((id) => {
    const audit = lhr.audits[id];
    const items = audit?.details?.items ?? [];
    if (!audit || audit.score === 1 || items.length === 0) return [];
    const described = items
      .filter((i) => i.node?.snippet ?? i.url)
      .slice(0, 3)
      .map((i) => {
        const what = i.node?.snippet ?? i.url ?? '';
        const how = [
          i.score !== undefined ? `shift ${i.score.toFixed(3)}` : '',
          i.wastedBytes ? `${Math.round(i.wastedBytes / 1000)} KB to save` : '',
          i.wastedMs ? `${Math.round(i.wastedMs)} ms` : '',
        ].filter(Boolean);
        return `${what.slice(0, 120)}${how.length ? ` (${how.join(', ')})` : ''}`;
      });
    return described.length > 0 ? [`${id}: ${described.join(' | ')}`] : [];
  });
}

/**
 * The bench runs pinned to the load generator's core, and a child inherits that. Lighthouse's
 * simulated throttling assumes the browser measured its trace on an unloaded machine (it then slows
 * the CPU 4× itself): Chromium squeezed onto one core with its own helper processes stretched every
 * task several times over (TBT 2–3 s instead of ~0.1 s on the same build). The audits run while no
 * load is sent, so the browser gets every core.
 */
function onEveryCore(argv: string[]): string[] {
  const cores = cpus().length; // not availableParallelism(): that is this process's one core
  const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
  return hasTaskset && cores > 1 ? ['taskset', '-c', `0-${cores - 1}`, ...argv] : argv;
}

function runCli(url: string, outputPath: string, extraArgs: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const [command, ...args] = onEveryCore([
      process.execPath,
      CLI,
      url,
      '--output=json',
      `--output-path=${outputPath}`,
      `--chrome-flags=${CHROME_FLAGS.join(' ')}`,
      '--quiet',
      ...extraArgs,
    ]);
    const child = spawn(command!, args, {
      env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`lighthouse ${url} exited ${code}: ${stderr.slice(-2000)}`)),
    );
  });
}

async function gzipSize(url: string): Promise<number> {
  const res = await fetch(url);
  return gzipSync(Buffer.from(await res.arrayBuffer())).length;
}

/**
 * Runs Lighthouse (mobile preset, default simulated throttling) on one page, RUNS_PER_PAGE times for
 * the medians (auditOnce); one retry, then an error row. The image budget's page is also measured
 * on the budget's phone (measureImageBytes).
 */
export async function auditPage(page: string, url: string): Promise<PageReport> {
  const report = await auditScores(page, url);
  return page === IMAGE_BUDGET_PAGE ? { ...report, images: await measureImageBytes(url) } : report;
}

async function withRetry<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch {
    return run();
  }
}

/**
 * Loads the page once more as the budget's phone (375 px wide at 2x, still the mobile preset) with
 * only the network-requests audit, and adds up the images it downloaded from the server.
 */
export async function measureImageBytes(url: string): Promise<ImageBytesReport> {
  const screen = IMAGE_BUDGET_SCREEN;
  try {
    return await withRetry(async () => {
      const lhr = await runLighthouse(url, [
        '--only-audits=network-requests',
        `--screenEmulation.width=${screen.width}`,
        `--screenEmulation.height=${screen.height}`,
        `--screenEmulation.deviceScaleFactor=${screen.deviceScaleFactor}`,
        '--screenEmulation.mobile=true',
      ]);
      const origin = new URL(url).origin;
      const images = (lhr.audits['network-requests']?.details?.items ?? []).filter(
        (r) => r.resourceType === 'Image' && r.url.startsWith(origin),
      );
      const variants: Record<string, number> = {};
      for (const image of images) {
        const variant = /\/([^/]+)\.webp$/.exec(new URL(image.url).pathname)?.[1] ?? 'other';
        variants[variant] = (variants[variant] ?? 0) + 1;
      }
      return {
        screen,
        requests: images.length,
        transferBytes: images.reduce((a, r) => a + (r.transferSize ?? 0), 0),
        variants,
      };
    });
  } catch (error) {
    return {
      screen,
      requests: 0,
      transferBytes: NaN,
      variants: {},
      error: (error as Error).message.split('\n').slice(0, 2).join(' '),
    };
  }
}

/** Set BENCH_LIGHTHOUSE_REPORTS to a folder to keep each full report there (to see what a metric is). */
const KEEP_REPORTS = process.env.BENCH_LIGHTHOUSE_REPORTS;

async function runLighthouse(url: string, args: string[]): Promise<Lhr> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cb-lighthouse-'));
  try {
    const output = path.join(dir, 'report.json');
    await runCli(url, output, args);
    if (KEEP_REPORTS) {
      mkdirSync(KEEP_REPORTS, { recursive: true });
      const name = `${new URL(url).pathname.replace(/[^a-z0-9]+/gi, '-')}${args.length}.json`;
      copyFileSync(output, path.join(KEEP_REPORTS, name));
    }
    return JSON.parse(readFileSync(output, 'utf8')) as Lhr;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function auditScores(page: string, url: string): Promise<PageReport> {
  try {
    return await withRetry(() => auditOnce(page, url));
  } catch (error) {
    return {
      page,
      url,
      scores: { performance: 0, accessibility: 0, 'best-practices': 0, seo: 0 },
      lcpMs: NaN,
      tbtMs: NaN,
      cls: NaN,
      jsGzipBytes: NaN,
      cssGzipBytes: NaN,
      jsTransferBytes: NaN,
      cssTransferBytes: NaN,
      failedAudits: [],
      diagnostics: [],
      tbtRunsMs: [],
      error: (error as Error).message.split('\n').slice(0, 2).join(' '),
    };
  }
}

/**
 * Lighthouse runs per page: five, as Lighthouse's documentation advises for a median. One run's
 * figures vary from the next on the same build (the listing page's TBT: 0 to 154 ms in ten runs).
 * Its traces show why: on a two-core machine the browser's own processes (the compositor and the
 * browser drawing a screenshot of every frame for the filmstrip) take the cores while the page
 * runs, and a task of 1–9 ms of the page's CPU time lasts 10–36 ms on the clock; the simulation
 * multiplies that by 4 (docs/performance.md, "The first screen's main thread", sixth pass).
 */
const RUNS_PER_PAGE = 5;

/** The median of the runs' values (Lighthouse CI's `median` aggregation of an audit). */
function median(values: number[]): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The report: each score and metric is the median of its values over the runs (Lighthouse CI's
 * `median` aggregation), every run's TBT listed beside it; the failed audits, the diagnostics and
 * the requests are the median run's, picked as Lighthouse's own tools pick it (`computeMedianRun`:
 * the run nearest the median first contentful paint and time to interactive).
 */
async function auditOnce(page: string, url: string): Promise<PageReport> {
  const runs: Lhr[] = [];
  for (let i = 0; i < RUNS_PER_PAGE; i += 1) {
    runs.push(await runLighthouse(url, [`--only-categories=${CATEGORIES.join(',')}`]));
  }
  const lhr = computeMedianRun(
    runs as unknown as Parameters<typeof computeMedianRun>[0],
  ) as unknown as Lhr;
  const scoreOf = (run: Lhr, id: string) => Math.round((run.categories[id]?.score ?? 0) * 100);
  const score = (id: string) => median(runs.map((run) => scoreOf(run, id)));
  const numericOf = (run: Lhr, id: string) => run.audits[id]?.numericValue ?? NaN;
  const numeric = (id: string) => median(runs.map((run) => numericOf(run, id)));
  const origin = new URL(url).origin;
  const requests = (lhr.audits['network-requests']?.details?.items ?? []).filter((r) =>
    r.url.startsWith(origin),
  );
  const ofType = (type: string) => requests.filter((r) => r.resourceType === type);
  const sum = async (items: { url: string }[]) =>
    (await Promise.all(items.map((r) => gzipSize(r.url)))).reduce((a, b) => a + b, 0);
  const transfer = (items: { transferSize?: number }[]) =>
    items.reduce((a, r) => a + (r.transferSize ?? 0), 0);
  const failedAudits = CATEGORIES.filter((c) => scoreOf(lhr, c) < 100).flatMap((c) =>
    (lhr.categories[c]?.auditRefs ?? [])
      .map((ref) => ({ ref, audit: lhr.audits[ref.id] }))
      .filter(
        ({ ref, audit }) => ref.weight > 0 && audit && audit.score !== null && audit.score < 0.9,
      )
      .map(({ ref, audit }) => {
        const examples = (audit!.details?.items ?? [])
          .slice(0, 3)
          .map((i) => i.description ?? i.node?.snippet ?? i.url)
          .filter(Boolean);
        const example = examples.length ? `: ${examples.join(' | ').slice(0, 300)}` : '';
        return `${c}: ${ref.id} (${audit!.title}, score ${audit!.score})${example}`;
      }),
  );
  return {
    page,
    url,
    scores: Object.fromEntries(CATEGORIES.map((c) => [c, score(c)])) as PageReport['scores'],
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    tbtRunsMs: runs.map((run) => Math.round(numericOf(run, 'total-blocking-time'))),
    jsGzipBytes: await sum(ofType('Script')),
    cssGzipBytes: await sum(ofType('Stylesheet')),
    jsTransferBytes: transfer(ofType('Script')),
    cssTransferBytes: transfer(ofType('Stylesheet')),
    failedAudits,
    diagnostics: diagnosticsOf(lhr),
  };
}

/** One page's accessibility audit (mobile preset): its score and the failed audits, with examples. */
export interface AccessibilityReport {
  page: string;
  /** Where the page ended (a signed-out visit to a signed-in page ends on /sign-in). */
  finalUrl: string;
  score: number;
  failed: string[];
}

/** Lighthouse's accessibility category only; `cookie` signs the page in (sent on every request). */
export async function auditAccessibility(
  page: string,
  url: string,
  cookie?: string,
): Promise<AccessibilityReport> {
  const args = ['--only-categories=accessibility'];
  if (cookie) args.push(`--extra-headers=${JSON.stringify({ Cookie: cookie })}`);
  const lhr = await withRetry(() => runLighthouse(url, args));
  const category = lhr.categories.accessibility;
  const failed = (category?.auditRefs ?? [])
    .map((ref) => ({ id: ref.id, audit: lhr.audits[ref.id] }))
    .filter(({ audit }) => audit && audit.score !== null && audit.score < 1)
    .map(({ id, audit }) => {
      const examples = (audit!.details?.items ?? [])
        .slice(0, 4)
        .map((i) => i.node?.snippet ?? i.description ?? i.url)
        .filter(Boolean);
      return `${id} (${audit!.title})${examples.length ? `: ${examples.join(' | ').slice(0, 600)}` : ''}`;
    });
  return {
    page,
    finalUrl: lhr.finalDisplayedUrl ?? url,
    score: Math.round((category?.score ?? 0) * 100),
    failed,
  };
}
