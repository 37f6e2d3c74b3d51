import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

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
  /** Set when Lighthouse could not audit the page (twice); the scores are then 0. */
  error?: string;
}

interface Lhr {
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

function runCli(url: string, outputPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        CLI,
        url,
        '--output=json',
        `--output-path=${outputPath}`,
        `--only-categories=${CATEGORIES.join(',')}`,
        `--chrome-flags=${CHROME_FLAGS.join(' ')}`,
        '--quiet',
      ],
      {
        env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
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

/** Runs Lighthouse (mobile preset, default simulated throttling) on one page; one retry, then an error row. */
export async function auditPage(page: string, url: string): Promise<PageReport> {
  try {
    return await auditOnce(page, url);
  } catch {
    try {
      return await auditOnce(page, url);
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
        error: (error as Error).message.split('\n').slice(0, 2).join(' '),
      };
    }
  }
}

async function auditOnce(page: string, url: string): Promise<PageReport> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cb-lighthouse-'));
  try {
    const output = path.join(dir, 'report.json');
    await runCli(url, output);
    const lhr = JSON.parse(readFileSync(output, 'utf8')) as Lhr;
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    const origin = new URL(url).origin;
    const requests = (lhr.audits['network-requests']?.details?.items ?? []).filter((r) =>
      r.url.startsWith(origin),
    );
    const ofType = (type: string) => requests.filter((r) => r.resourceType === type);
    const sum = async (items: { url: string }[]) =>
      (await Promise.all(items.map((r) => gzipSize(r.url)))).reduce((a, b) => a + b, 0);
    const transfer = (items: { transferSize?: number }[]) =>
      items.reduce((a, r) => a + (r.transferSize ?? 0), 0);
    const failedAudits = CATEGORIES.filter((c) => score(c) < 100).flatMap((c) =>
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
      jsGzipBytes: await sum(ofType('Script')),
      cssGzipBytes: await sum(ofType('Stylesheet')),
      jsTransferBytes: transfer(ofType('Script')),
      cssTransferBytes: transfer(ofType('Stylesheet')),
      failedAudits,
      diagnostics: diagnosticsOf(lhr),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
