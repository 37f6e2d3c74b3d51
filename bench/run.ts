/**
 * The performance benchmark: seeded catalogues on both engines, HTTP load from this process (core 1)
 * against the production server (core 0), Lighthouse, and the budgets. Started by `npm run bench`
 * through bench/index.mjs, which installs the tools and pins this process.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { budgetLine, summarizeBudgets } from './lib/budget-limits';
import { checkBudgets } from './lib/budgets';
import { prepareDatabase, type PreparedDatabase } from './lib/databases';
import { auditPage } from './lib/lighthouse';
import { runLoad, scenarioRow } from './lib/load';
import { FANOUT_SCENARIO, isFanOutSelected, runFanOut } from './lib/fanout';
import {
  MESSAGE_STREAMS_SCENARIO,
  isMessageStreamsSelected,
  runMessageStreams,
} from './lib/message-streams';
import { describeMachine } from './lib/machine';
import { runManyCampuses } from './lib/many-campuses';
import { MixedWorkload } from './lib/mixed';
import { parseOptions, type BenchOptions, type Engine } from './lib/options';
import { renderResults, updateDocs, writeResultFile } from './lib/report';
import type { BenchResult, RunResult, ScenarioRow } from './lib/results';
import { RUSH_SCENARIO, isRushSelected, runRush, rushSize } from './lib/rush';
import { findMainScript, isScenarioSelected, SCENARIOS } from './lib/scenarios';
import {
  checkStartupBudgets,
  isStartupSelected,
  measureStartHealth,
  START_SECONDS,
  STARTUP_SCENARIO,
} from './lib/startup-health';
import { ROOT, startServer, waitUntilIdle, type RunningServer } from './lib/server-process';
import { signIn } from './lib/sign-in';

const log = (message: string) =>
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

/** Lighthouse runs once, on the embedded 10k server when there is one (the default install). */
function lighthouseTarget(options: BenchOptions): { engine: Engine; size: number } | null {
  if (!options.lighthouse) return null;
  const engine = options.engines.includes('pglite') ? 'pglite' : options.engines[0]!;
  const size = options.sizes.includes(10_000) ? 10_000 : options.sizes[0]!;
  return { engine, size };
}

async function runScenarios(
  server: RunningServer,
  prepared: PreparedDatabase,
  options: BenchOptions,
): Promise<RunResult> {
  const session = await signIn(server.url);
  const mixed =
    'cookie' in session
      ? new MixedWorkload(
          prepared.seed.ownedListingIds,
          prepared.seed.sampleListingIds,
          session.cookie,
          options.seed,
          prepared.seed.benchImageUrls,
        )
      : null;
  const context = {
    seed: prepared.seed,
    mainScript: await findMainScript(server.url),
    mixed,
    cookie: 'cookie' in session ? session.cookie : null,
  };
  const rows: ScenarioRow[] = [];
  let healthRps = NaN;
  for (const scenario of SCENARIOS) {
    if (!isScenarioSelected(options, scenario.name)) continue;
    // Re-read before use: another build of the web app (hashed names) may have replaced the script.
    if (scenario.name === 'home-main-script') context.mainScript = await findMainScript(server.url);
    const load = scenario.load(context);
    if (!load) {
      log(
        `  ${scenario.name}: skipped (${scenario.name === 'mixed' || scenario.name === 'signed-in-session' ? 'no signed-in seller' : 'web app not built'})`,
      );
      continue;
    }
    const drained = await waitUntilIdle(server.url);
    if (drained > 1)
      log(`  (waited ${drained.toFixed(1)} s for the previous scenario's queued requests)`);
    let cpuMs = NaN;
    const r = await runLoad(
      { url: server.url, connections: options.connections, duration: options.duration, ...load },
      options.warmup,
      () => {
        const before = server.cpuMs();
        return () => (cpuMs = server.cpuMs() - before);
      },
    );
    if (scenario.name === 'health') healthRps = r.requestsPerSecond;
    const row = scenarioRow(scenario, r, { healthRps, peakRssMb: server.peakRssMb(), cpuMs });
    rows.push(row);
    log(
      `  ${scenario.name.padEnd(18)} ${Math.round(row.requestsPerSecond).toString().padStart(6)} req/s  p50 ${row.p50.toFixed(1)} ms  p99 ${row.p99.toFixed(1)} ms  CPU ${row.serverCpuMsPerRequest.toFixed(2)} ms/req  errors ${row.errors}${row.errors ? ` ${JSON.stringify(row.statusCodes)}` : ''}  load ${row.loadAverage.toFixed(1)}  RSS ${Math.round(row.peakRssMb)} MB${row.generator === 'autocannon' ? '' : `  (${row.generator})`}`,
    );
  }
  const hasMixed = mixed !== null && rows.some((r) => r.scenario === 'mixed');
  if (hasMixed) await waitUntilIdle(server.url);
  const writeCheck = hasMixed ? await mixed.verify(server.url) : null;
  if (writeCheck) {
    log(
      `  writes: ${JSON.stringify(writeCheck.acknowledged)} acknowledged, ${writeCheck.verified} verified, ${writeCheck.missing.length} missing`,
    );
    for (const m of writeCheck.missing.slice(0, 5)) log(`    missing ${m}`);
    for (const m of writeCheck.refused) log(`    refused ${m}`);
  }
  const {
    sampleListingIds: _s,
    ownedListingIds: _o,
    benchImageUrls: _i,
    sampleIsbns: _b,
    sampleCourses: _c,
    ...seed
  } = prepared.seed;
  return {
    engine: prepared.engine,
    size: prepared.size,
    seed,
    readySeconds: server.readySeconds,
    signIn: 'cookie' in session ? 'ok' : session.error,
    rows,
    writeCheck,
  };
}

async function main() {
  const argv = process.argv.slice(2);
  const options = parseOptions(argv);
  const pinned = process.env.BENCH_PINNED === '1';
  const result: BenchResult = {
    startedAt: new Date().toISOString(),
    command: `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`,
    options,
    machine: await describeMachine(
      options.engines.includes('postgres') ? options.postgresUrl : null,
      pinned,
    ),
    runs: [],
    lighthouse: null,
    fanOut: [],
    messageStreams: null,
    rush: null,
    budgets: [],
  };
  if (!pinned)
    log(
      'WARNING: not pinned to separate cores (taskset or a second core missing); figures are less comparable',
    );
  if (options.build) {
    log('building the web app and the server (npm run build)');
    const build = spawnSync('npm', ['run', 'build'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (build.status !== 0) throw new Error('npm run build failed');
  }
  if (options.campuses !== null) {
    process.exitCode = await runManyCampuses(
      { ...options, campuses: options.campuses },
      pinned,
      result.command,
    );
    return;
  }
  const target = lighthouseTarget(options);

  // Load scenarios asked for besides health; with only alerts-fanout or message-streams asked for,
  // no catalogue is made, and with only rush, only the largest PostgreSQL one.
  const hasLoadScenarios =
    !options.scenarios ||
    isStartupSelected(options) ||
    SCENARIOS.some((s) => s.name !== 'health' && options.scenarios!.includes(s.name));
  const rushAt = (engine: Engine, size: number) =>
    engine === 'postgres' && size === rushSize(options) && isRushSelected(options);
  if (isMessageStreamsSelected(options)) {
    log(`${MESSAGE_STREAMS_SCENARIO}: two servers on PostgreSQL, 1,000 idle streams each`);
    const m = await runMessageStreams(options);
    result.messageStreams = m;
    log(
      m.error
        ? `  ${MESSAGE_STREAMS_SCENARIO} FAILED: ${m.error}`
        : `  send p99 ${m.sendP99Ms.toFixed(1)} ms; delivery across servers p50 ${m.deliveryP50Ms.toFixed(1)} ms, p99 ${m.deliveryP99Ms.toFixed(1)} ms; ${m.kbPerIdleStream.toFixed(1)} KB per idle stream`,
    );
  }
  for (const engine of options.engines) {
    if (isFanOutSelected(options)) {
      log(
        `${engine} ${FANOUT_SCENARIO}: a listing matching ${options.fanOutAlerts.toLocaleString('en-US')} alerts, ${options.fanOutSamples} creates each`,
      );
      const f = await runFanOut(engine, options);
      result.fanOut.push(f);
      log(
        f.error
          ? `  ${FANOUT_SCENARIO} FAILED: ${f.error}`
          : `  create median ${f.createMedianMsWithoutAlerts} ms without alerts, ${f.createMedianMsWith1000MatchingAlerts} ms with them; ${f.mailsSent} mails sent in ${f.fanOutSeconds} s, ${f.deliveriesLeft} left (${f.totalSeconds.toFixed(1)} s in all)`,
      );
    }
    for (const size of options.sizes) {
      if (!hasLoadScenarios && !rushAt(engine, size)) continue;
      log(`${engine} ${size.toLocaleString('en-US')} listings: generating the catalogue`);
      const prepared = await prepareDatabase(engine, size, options);
      let server: RunningServer | undefined;
      // Ctrl-C: stop the server and drop the scratch database before leaving.
      const interrupt = () => {
        log('interrupted: cleaning up');
        void (async () => {
          await server?.stop();
          await prepared.dispose();
          process.exit(130);
        })();
      };
      process.once('SIGINT', interrupt);
      process.once('SIGTERM', interrupt);
      try {
        log(`  generated in ${prepared.seed.seconds.toFixed(1)} s; starting the server`);
        server = await startServer({
          dataDir: prepared.dataDir,
          env: prepared.env,
          logLevel: options.logLevel,
          pin: pinned,
        });
        log(`  ready in ${server.readySeconds.toFixed(2)} s at ${server.url} (pid ${server.pid})`);
        if (hasLoadScenarios) result.runs.push(await runScenarios(server, prepared, options));
        if (rushAt(engine, size)) {
          await waitUntilIdle(server.url);
          log(`  ${RUSH_SCENARIO}: students signing in at once, a few sellers writing`);
          const r = await runRush(server, prepared.env.DATABASE_URL!, size);
          result.rush = r;
          log(
            r.error
              ? `  ${RUSH_SCENARIO} FAILED: ${r.error}`
              : `  ${r.kinds.map((k) => `${k.kind} p50 ${k.p50.toFixed(1)} / p99 ${k.p99.toFixed(1)} ms${k.errors ? ` (${k.errors} errors)` : ''}`).join(', ')}; ` +
                  `server CPU ${r.serverCpuMsPerSignIn.toFixed(1)} ms per sign-in (${r.serverCpuMsPerQuietSignIn.toFixed(1)} ms alone)`,
          );
        }
        if (target?.engine === engine && target.size === size) {
          const id = prepared.seed.sampleListingIds[0]!;
          const course = prepared.seed.sampleCourses[0]!;
          const pages = [];
          for (const page of ['/', '/search', `/listing/${id}`, `/course/${course}`]) {
            log(`  lighthouse ${page}`);
            pages.push(await auditPage(page, `${server.url}${page}`));
          }
          result.lighthouse = { engine, size, pages };
        }
        const run = result.runs.find((r) => r.engine === engine && r.size === size);
        if (run && isStartupSelected(options)) {
          // A restart on the same database (its jobs' slots fell due meanwhile), as after a deploy.
          await server.stop();
          server = await startServer({
            dataDir: prepared.dataDir,
            env: prepared.env,
            logLevel: options.logLevel,
            pin: pinned,
          });
          const h = await measureStartHealth(server.url, options.connections, server.readySeconds);
          run.startHealth = h;
          log(
            `  ${STARTUP_SCENARIO}: restarted in ${h.readySeconds.toFixed(2)} s; health ${Math.round(h.start.requestsPerSecond)} req/s (p99 ${h.start.p99.toFixed(1)} ms) in the first ${START_SECONDS} s, ${Math.round(h.later.requestsPerSecond)} req/s (p99 ${h.later.p99.toFixed(1)} ms) later`,
          );
        }
      } finally {
        process.off('SIGINT', interrupt);
        process.off('SIGTERM', interrupt);
        await server?.stop();
        await prepared.dispose();
      }
    }
  }

  result.machine.loadAverageAfter = os.loadavg();
  result.finishedAt = new Date().toISOString();
  result.budgets = [...checkBudgets(result), ...checkStartupBudgets(result)];
  const markdown = renderResults(result);
  console.log(`\n${markdown}\n`);
  for (const b of result.budgets) log(budgetLine(b));
  log(summarizeBudgets(result.budgets));
  log(`results written to ${writeResultFile(result)}`);
  if (options.updateDocs)
    log(
      (await updateDocs(markdown))
        ? 'docs/performance.md updated'
        : 'docs/performance.md has no results markers: not updated',
    );
  // A thin margin is flagged above but does not fail the run; a FAIL does.
  process.exitCode = result.budgets.some((b) => b.status === 'FAIL') ? 1 : 0;
}

await main();
