import type { BenchResult, BudgetCheck, ScenarioRow } from './results';
import { PAGE_SCENARIOS } from './scenarios';
import {
  BUDGET,
  check,
  ms,
  notMeasured,
  run,
  searchRows,
  type BudgetCondition,
  type BudgetFigure,
} from './budget-limits';

/** A scenario's p99 against a ceiling in ms. */
const p99 = (r: ScenarioRow, limit: number, label = r.scenario): BudgetFigure => ({
  label: `${label} p99`,
  value: r.p99,
  limit,
  direction: '≤',
  unit: 'ms',
});
/** A scenario's requests per second against a floor. */
const rps = (r: ScenarioRow, limit: number, label = r.scenario): BudgetFigure => ({
  label,
  value: r.requestsPerSecond,
  limit,
  direction: '≥',
  unit: 'req/s',
});
/** A scenario's share of the same run's health req/s against a floor. */
const shareOfHealth = (r: ScenarioRow, limit: number): BudgetFigure => ({
  label: `${r.scenario} share of health`,
  value: r.ratioToHealth,
  limit,
  direction: '≥',
  unit: '×',
});

/**
 * The budgets of the load runs (bench/run.ts): search, the landing pages, my courses, a listing by
 * id, the main script, errors, acknowledged writes, growth with the catalogue and readiness.
 */
export function checkLoadBudgets(result: BenchResult): BudgetCheck[] {
  const checks: BudgetCheck[] = [];
  const connectionsNote =
    result.options.connections === BUDGET.connections
      ? ''
      : ` (run used ${result.options.connections} connections, budget is for 50)`;
  const connections: BudgetCondition = {
    label: `run with ${BUDGET.connections} connections`,
    ok: connectionsNote === '',
  };

  const pg100k = run(result, 'postgres', 100_000);
  let name = 'PostgreSQL 100k: every search p99 ≤ 50 ms and ≥ 1,000 req/s';
  const pgSearch = pg100k ? searchRows(pg100k) : [];
  if (pgSearch.length === 0) checks.push(notMeasured(name, 'no PostgreSQL 100k search run'));
  else
    checks.push(
      check(
        name,
        pgSearch
          .map((r) => `${r.scenario} ${Math.round(r.requestsPerSecond)} req/s p99 ${ms(r.p99)}`)
          .join('; ') + connectionsNote,
        pgSearch.flatMap((r) => [
          p99(r, BUDGET.postgresSearchP99Ms),
          rps(r, BUDGET.postgresSearchRps),
        ]),
        [connections],
      ),
    );
  name = 'PostgreSQL 100k: every search p99 ≤ 40 ms and ≥ 0.3 × health req/s (same run)';
  if (pgSearch.length === 0) checks.push(notMeasured(name, 'no PostgreSQL 100k search run'));
  else {
    const health = pg100k!.rows.find((r) => r.scenario === 'health');
    checks.push(
      health
        ? check(
            name,
            `health ${Math.round(health.requestsPerSecond)} req/s, ${health.serverCpuMsPerRequest.toFixed(2)} ms CPU; ` +
              pgSearch
                .map(
                  (r) =>
                    `${r.scenario} p99 ${ms(r.p99)} ×${r.ratioToHealth.toFixed(2)} ${r.serverCpuMsPerRequest.toFixed(2)} ms CPU`,
                )
                .join('; ') +
              connectionsNote,
            pgSearch.flatMap((r) => [
              p99(r, BUDGET.postgresSearchP99MsStrict),
              shareOfHealth(r, BUDGET.postgresSearchShareOfHealth),
            ]),
            [connections],
          )
        : notMeasured(name, 'no health row in the PostgreSQL 100k run'),
    );
  }

  for (const engine of ['pglite', 'postgres'] as const) {
    name = `${engine} 100k: the four landing pages, signed out, p99 ≤ 50 ms and ≥ 0.5 × health req/s`;
    const at100k = run(result, engine, 100_000);
    const health = at100k?.rows.find((r) => r.scenario === 'health');
    const pages = at100k?.rows.filter((r) => PAGE_SCENARIOS.includes(r.scenario)) ?? [];
    if (!health || pages.length === 0) {
      checks.push(notMeasured(name, `no ${engine} 100k run with health and the page scenarios`));
      continue;
    }
    checks.push(
      check(
        name,
        `health ${Math.round(health.requestsPerSecond)} req/s; ` +
          pages
            .map(
              (r) =>
                `${r.scenario} ${Math.round(r.requestsPerSecond)} req/s p99 ${ms(r.p99)} ×${r.ratioToHealth.toFixed(2)}`,
            )
            .join('; ') +
          connectionsNote,
        pages.flatMap((r) => [
          p99(r, BUDGET.pageP99Ms),
          shareOfHealth(r, BUDGET.pageShareOfHealth),
        ]),
        [
          {
            label: `all ${PAGE_SCENARIOS.length} landing pages measured`,
            ok: pages.length === PAGE_SCENARIOS.length,
          },
          connections,
        ],
      ),
    );
  }

  name = 'PostgreSQL 100k: /my-courses for five courses p99 ≤ 50 ms';
  const myCourses = pg100k?.rows.find((r) => r.scenario === 'my-courses');
  checks.push(
    myCourses
      ? check(
          name,
          `${Math.round(myCourses.requestsPerSecond)} req/s p99 ${ms(myCourses.p99)}${connectionsNote}`,
          [p99(myCourses, BUDGET.myCoursesP99Ms)],
          [connections],
        )
      : notMeasured(name, 'no PostgreSQL 100k my-courses run'),
  );

  name = 'PostgreSQL 100k: listing by id ≥ 3,000 req/s';
  const byId = pg100k?.rows.find((r) => r.scenario === 'listing-by-id');
  checks.push(
    byId
      ? check(
          name,
          `${Math.round(byId.requestsPerSecond)} req/s${connectionsNote}`,
          [rps(byId, BUDGET.postgresByIdRps)],
          [connections],
        )
      : notMeasured(name, 'no PostgreSQL 100k by-id run'),
  );

  name = 'PGlite 10k: every search p99 ≤ 100 ms';
  const pglite10k = run(result, 'pglite', 10_000);
  const liteSearch = pglite10k ? searchRows(pglite10k) : [];
  checks.push(
    liteSearch.length === 0
      ? notMeasured(name, 'no PGlite 10k search run')
      : check(
          name,
          liteSearch.map((r) => `${r.scenario} p99 ${ms(r.p99)}`).join('; ') + connectionsNote,
          liteSearch.map((r) => p99(r, BUDGET.pgliteSearchP99Ms)),
          [connections],
        ),
  );

  name = "Main script (the app's chunk, /assets/app-*.js) ≥ 4,500 req/s (5× the 900 req/s before)";
  const scripts = result.runs.flatMap((r) =>
    r.rows.filter((row) => row.scenario === 'home-main-script').map((row) => ({ r, row })),
  );
  const notByWrk = scripts.filter(({ row }) => row.generator !== 'wrk');
  checks.push(
    scripts.length === 0
      ? notMeasured(name, 'home-main-script not run')
      : notByWrk.length > 0
        ? notMeasured(
            name,
            `wrk is not installed (Debian: apt-get install wrk); autocannon's ${notByWrk
              .map(({ row }) => `${Math.round(row.requestsPerSecond)} req/s`)
              .join(', ')} is its own limit for answers this large`,
          )
        : check(
            name,
            scripts
              .map(
                ({ r, row }) =>
                  `${r.engine} ${r.size}: ${Math.round(row.requestsPerSecond)} req/s, ${row.serverCpuMsPerRequest.toFixed(2)} ms CPU/answer`,
              )
              .join('; ') + connectionsNote,
            scripts.map(({ r, row }) => rps(row, BUDGET.mainScriptRps, `${r.engine} ${r.size}`)),
            [connections],
          ),
  );

  name = 'Zero errors in every scenario';
  const rush = result.rush;
  const withErrors = [
    ...result.runs.flatMap((r) =>
      r.rows
        .filter((row) => row.errors > 0)
        .map(
          (row) =>
            `${r.engine} ${r.size} ${row.scenario}: ${row.requests === 0 ? `no answer within the run (${row.errors} connections)` : row.errors}`,
        ),
    ),
    ...(rush?.error ? [`postgres ${rush.size} rush: ${rush.error}`] : []),
    ...(rush?.kinds ?? [])
      .filter((k) => k.errors > 0)
      .map((k) => `postgres ${rush!.size} rush ${k.kind}: ${k.errors}`),
  ];
  checks.push(
    result.runs.length === 0 && !rush
      ? notMeasured(name, 'no load run')
      : check(
          name,
          withErrors.join('; ') || 'none',
          [],
          [{ label: 'no error', ok: withErrors.length === 0 }],
        ),
  );

  name = 'Every acknowledged write is found afterwards';
  const writeRuns = result.runs.filter((r) => r.writeCheck);
  const verified = writeRuns.reduce((n, r) => n + r.writeCheck!.verified, 0);
  const describeWrites = writeRuns
    .map((r) => {
      const w = r.writeCheck!;
      const acked = w.acknowledged.create + w.acknowledged.update + w.acknowledged.sold;
      return `${r.engine} ${r.size}: ${acked} acknowledged (${w.acknowledged.create} create, ${w.acknowledged.update} update, ${w.acknowledged.sold} sold), ${w.verified} listings verified, ${w.missing.length} missing`;
    })
    .join('; ');
  checks.push(
    verified === 0
      ? notMeasured(
          name,
          writeRuns.length === 0 ? 'no mixed run' : `no write was acknowledged: ${describeWrites}`,
        )
      : check(
          name,
          describeWrites,
          [],
          [
            {
              label: 'no acknowledged write missing',
              ok: writeRuns.every((r) => r.writeCheck!.missing.length === 0),
            },
          ],
        ),
  );

  for (const engine of ['pglite', 'postgres'] as const) {
    name = `${engine}: search p99 grows < 3× from 1k to 100k`;
    const small = run(result, engine, 1000);
    const large = run(result, engine, 100_000);
    if (!small || !large) {
      checks.push(notMeasured(name, 'needs both the 1k and the 100k run'));
      continue;
    }
    const growth = searchRows(large).map((row) => {
      const base = small.rows.find((r) => r.scenario === row.scenario);
      return { scenario: row.scenario, factor: base ? row.p99 / base.p99 : NaN };
    });
    if (growth.length === 0) {
      checks.push(notMeasured(name, 'no search scenario in the 100k run'));
      continue;
    }
    checks.push(
      check(
        name,
        growth
          .map(
            (g) =>
              `${g.scenario} ${Number.isFinite(g.factor) ? `×${g.factor.toFixed(2)}` : 'no answer'}`,
          )
          .join('; '),
        growth.map((g): BudgetFigure => ({
          label: `${g.scenario} p99 growth`,
          value: g.factor,
          limit: BUDGET.searchGrowth,
          direction: '<',
          unit: '×',
        })),
      ),
    );
  }

  name = 'Server ready within 3 s (PGlite defaults, 10,000 listings)';
  checks.push(
    pglite10k
      ? check(name, `${pglite10k.readySeconds.toFixed(2)} s to the first 200 from /api/health`, [
          {
            label: 'ready',
            value: pglite10k.readySeconds,
            limit: BUDGET.readySeconds,
            direction: '≤',
            unit: 's',
          },
        ])
      : notMeasured(name, 'no PGlite 10k run'),
  );
  return checks;
}
