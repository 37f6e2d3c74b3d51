import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { marginLabel, resultLabel, summarizeBudgets } from './budget-limits';
import type { BenchResult } from './results';
import { ROOT } from './server-process';

const DOC = path.join(ROOT, 'docs/performance.md');
const START = '<!-- bench:results:start -->';
const END = '<!-- bench:results:end -->';

function table(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

const n0 = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
const n1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '–');
const n2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '–');

/** The results as Markdown: load table, start-up, writes, Lighthouse, budgets. */
export function renderResults(result: BenchResult): string {
  const m = result.machine;
  const parts: string[] = [];
  parts.push(
    `Run of ${result.startedAt} (\`${result.command}\`): ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB, ${m.os}, Node ${m.node}, ${m.postgres ?? 'no PostgreSQL server'}; server on core 0 and load generator on core 1: ${m.pinned ? 'yes' : 'NO (taskset unavailable)'}; load average before ${m.loadAverageBefore.map(n2).join(' ')}, after ${(m.loadAverageAfter ?? []).map(n2).join(' ')}. ${result.options.connections} connections, ${result.options.duration} s per scenario after ${result.options.warmup} s of warm-up, seed ${result.options.seed}.`,
  );
  if (result.runs.length > 0)
    parts.push(
      table(
        [
          'engine',
          'listings',
          'scenario',
          'req/s',
          'p50 ms',
          'p99 ms',
          'errors',
          '× health',
          'peak RSS MB',
          'server CPU ms/req',
          'KB/answer',
          'load avg',
        ],
        result.runs.flatMap((r) =>
          r.rows.map((row) => [
            r.engine,
            n0(r.size),
            row.scenario,
            n0(row.requestsPerSecond),
            n1(row.p50),
            n1(row.p99),
            row.errors,
            n2(row.ratioToHealth),
            n0(row.peakRssMb),
            n2(row.serverCpuMsPerRequest),
            n1(row.bytesPerResponse / 1000),
            n1(row.loadAverage),
          ]),
        ),
      ),
    );
  if (result.runs.length > 0)
    parts.push(
      table(
        ['engine', 'listings', 'catalogue generated in', 'server ready in', 'sign-in'],
        result.runs.map((r) => [
          r.engine,
          n0(r.size),
          `${n1(r.seed.seconds)} s`,
          `${n2(r.readySeconds)} s`,
          r.signIn,
        ]),
      ),
    );
  if (result.fanOut.length > 0) {
    parts.push(
      'Alerts fan-out (`alerts-fanout`, bench/alerts-fanout.ts: the app in-process, listings created through `inject`, then the jobs run and the mails flushed):',
    );
    parts.push(
      table(
        [
          'engine',
          'alerts',
          'creates',
          'create median ms, no alert',
          'create median ms, all matching',
          'mails sent',
          'deliveries left',
          'fan-out s',
          'whole run s',
        ],
        result.fanOut.map((f) =>
          f.error
            ? [
                f.engine,
                f.alerts,
                f.samples,
                `FAILED: ${f.error}`,
                '–',
                '–',
                '–',
                '–',
                n1(f.totalSeconds),
              ]
            : [
                f.engine,
                n0(f.alerts),
                f.samples,
                n1(f.createMedianMsWithoutAlerts),
                n1(f.createMedianMsWith1000MatchingAlerts),
                n0(f.mailsSent),
                f.deliveriesLeft,
                n2(f.fanOutSeconds),
                n1(f.totalSeconds),
              ],
        ),
      ),
    );
  }
  const rush = result.rush;
  if (rush) {
    parts.push(
      rush.error
        ? `Rush (\`rush\`, bench/rush.ts) on PostgreSQL with ${n0(rush.size)} listings: FAILED: ${rush.error}`
        : `Rush (\`rush\`, bench/rush.ts: students signing in at once through the real password check, each then searching, opening listings and course pages, saving one and creating an alert, while sellers create listings) on PostgreSQL with ${n0(rush.size)} listings: ${rush.students} students (${rush.rounds} rounds each) and ${rush.sellers} sellers in ${n1(rush.seconds)} s; the server's CPU ${n1(rush.serverCpuMsPerSignIn)} ms per sign-in (the whole rush ÷ sign-ins), ${n1(rush.serverCpuMsPerQuietSignIn)} ms for a sign-in alone:`,
    );
    if (rush.kinds.length > 0)
      parts.push(
        table(
          ['kind', 'requests', 'errors', 'p50 ms', 'p99 ms'],
          rush.kinds.map((k) => [k.kind, n0(k.requests), k.errors, n1(k.p50), n1(k.p99)]),
        ),
      );
    if (rush.failures.length > 0)
      parts.push(`First failures:\n\n${rush.failures.map((f) => `- ${f}`).join('\n')}`);
  }
  if (result.lighthouse) {
    const { engine, size, pages } = result.lighthouse;
    parts.push(
      `Lighthouse 12 (mobile preset, simulated throttling) on the ${engine} ${n0(size)} server:`,
    );
    parts.push(
      table(
        [
          'page',
          'performance',
          'accessibility',
          'best practices',
          'SEO',
          'LCP ms',
          'TBT ms (each run)',
          'CLS',
          'JS gzip KB',
          'CSS gzip KB',
          'JS / CSS as sent KB',
        ],
        pages.map((p) => [
          p.page,
          p.scores.performance,
          p.scores.accessibility,
          p.scores['best-practices'],
          p.scores.seo,
          n0(p.lcpMs),
          // Older results files have no runs.
          p.tbtRunsMs?.length ? `${n0(p.tbtMs)} (${p.tbtRunsMs.join(', ')})` : n0(p.tbtMs),
          Number.isFinite(p.cls) ? p.cls.toFixed(3) : '–',
          n1(p.jsGzipBytes / 1000),
          n1(p.cssGzipBytes / 1000),
          `${n1(p.jsTransferBytes / 1000)} / ${n1(p.cssTransferBytes / 1000)}`,
        ]),
      ),
    );
    const measured = pages.filter((p) => p.images);
    if (measured.length > 0) {
      parts.push(
        table(
          ['page', 'phone', 'image requests', 'image KB as sent', 'variants'],
          measured.map(({ page, images }) => [
            page,
            `${images!.screen.width}×${images!.screen.height} @${images!.screen.deviceScaleFactor}x`,
            images!.error ? `not measured (${images!.error})` : images!.requests,
            n1(images!.transferBytes / 1000),
            Object.entries(images!.variants)
              .map(([variant, count]) => `${variant}.webp ×${count}`)
              .join(', ') || '–',
          ]),
        ),
      );
    }
    const failed = pages.flatMap((p) => [
      ...(p.error ? [`- ${p.page}: NOT AUDITED: ${p.error}`] : []),
      ...p.failedAudits.map((a) => `- ${p.page}: ${a}`),
      ...p.diagnostics.map((d) => `- ${p.page}: diagnostic ${d}`),
    ]);
    if (failed.length > 0)
      parts.push(`Audits below 0.9 in the categories under 100:\n\n${failed.join('\n')}`);
  }
  parts.push(
    table(
      ['budget', 'result', 'margin', 'measured'],
      result.budgets.map((b) => [
        b.budget,
        `**${resultLabel(b)}**`,
        marginLabel(b).replace(/^margin /, ''),
        b.detail,
      ]),
    ),
  );
  parts.push(`${summarizeBudgets(result.budgets)}.`);
  return parts.join('\n\n');
}

export function writeResultFile(result: BenchResult): string {
  const dir = path.join(ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${result.startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return file;
}

/**
 * Replaces the results section of docs/performance.md (the rest of the page is written by hand), and
 * formats the page with the repository's prettier so `npm run format:check` stays clean.
 */
export async function updateDocs(markdown: string): Promise<boolean> {
  if (!existsSync(DOC)) return false;
  const doc = readFileSync(DOC, 'utf8');
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) return false;
  const updated = `${doc.slice(0, start + START.length)}\n\n${markdown}\n\n${doc.slice(end)}`;
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(DOC)) ?? {};
  writeFileSync(DOC, await prettier.format(updated, { ...options, filepath: DOC }));
  return true;
}
