import type { BenchResult, BudgetCheck } from './results';
import { RUSH_READS, signInWave, type RushResult } from './rush';
import { BUDGET, check, failed, ms, notMeasured, type BudgetFigure } from './budget-limits';

/**
 * The rush's budget: no error at all, p99 ≤ 60 ms for the reads a student waits on (search, a
 * listing, a course page) and ≤ 250 ms for every other kind but sign-in (checkSignInWave's).
 */
export function checkRush(rush: RushResult | null | undefined): BudgetCheck {
  const name =
    'PostgreSQL 100k, rush of 200 students at once: 0 errors, search, listing and course p99 ≤ 60 ms, every other kind but sign-in ≤ 250 ms';
  if (!rush) return notMeasured(name, 'rush not run');
  if (rush.error) return failed(name, rush.error);
  const errors = rush.kinds.reduce((n, k) => n + k.errors, 0);
  const detail =
    rush.kinds
      .map(
        (k) =>
          `${k.kind} ${k.requests}× p50 ${ms(k.p50)} p99 ${ms(k.p99)}${k.errors > 0 ? ` ${k.errors} errors` : ''}`,
      )
      .join('; ') +
    `; server CPU ${ms(rush.serverCpuMsPerSignIn)} per sign-in (${ms(rush.serverCpuMsPerQuietSignIn)} alone)`;
  const checked = check(
    name,
    detail,
    rush.kinds
      .filter((k) => k.kind !== 'sign-in')
      .map((k): BudgetFigure => ({
        label: `${k.kind} p99`,
        value: k.p99,
        limit: RUSH_READS.includes(k.kind) ? BUDGET.rushReadP99Ms : BUDGET.rushP99Ms,
        direction: '≤',
        unit: 'ms',
      })),
    [
      { label: 'requests measured', ok: rush.kinds.length > 0 },
      { label: 'no error', ok: errors === 0 },
    ],
  );
  if (rush.size !== BUDGET.rushListings || rush.students !== BUDGET.rushStudents)
    return notMeasured(
      name,
      `run at ${rush.size.toLocaleString('en-US')} listings with ${rush.students} students, the budget is for ${BUDGET.rushListings.toLocaleString('en-US')} and ${BUDGET.rushStudents} (${checked.status === 'PASS' ? 'would pass' : 'would fail'}): ${detail}`,
    );
  return checked;
}

/**
 * The rush's sign-in wave: its students signed in at ≥ 80 % of the rate the password hash allows on
 * this machine's cores (cores ÷ one check's time alone), with both rates printed.
 */
export function checkSignInWave(rush: RushResult | null | undefined): BudgetCheck {
  const name = `PostgreSQL 100k, rush: the sign-in wave at ≥ ${BUDGET.signInWaveShareOfHash} × the rate the password hash allows (cores ÷ one check)`;
  if (!rush) return notMeasured(name, 'rush not run');
  if (rush.error) return failed(name, rush.error);
  const wave = signInWave(rush);
  const detail =
    `${rush.signIns} sign-ins in ${rush.signInWaveSeconds.toFixed(2)} s = ${wave.perSecond.toFixed(1)}/s; ` +
    `one check ${ms(rush.hashMs)} alone × ${rush.cores} cores allows ${wave.hashAllows.toFixed(1)}/s`;
  const checked = check(name, detail, [
    {
      label: 'sign-ins per second ÷ the hash’s rate',
      value: wave.share,
      limit: BUDGET.signInWaveShareOfHash,
      direction: '≥',
      unit: '×',
    },
  ]);
  if (rush.size !== BUDGET.rushListings || rush.students !== BUDGET.rushStudents)
    return notMeasured(
      name,
      `run at ${rush.size.toLocaleString('en-US')} listings with ${rush.students} students (${checked.status === 'PASS' ? 'would pass' : 'would fail'}): ${detail}`,
    );
  return checked;
}

/** The messages' budgets (bench/message-streams.ts): send, delivery across servers, memory. */
export function checkMessageBudgets(m: BenchResult['messageStreams']): BudgetCheck[] {
  type Measured = NonNullable<typeof m>;
  const budgets: [string, (r: Measured) => BudgetFigure, (r: Measured) => string][] = [
    [
      'Messages: send p99 ≤ 50 ms with 1,000 open streams per server (PostgreSQL)',
      (r) => ({
        label: 'send p99',
        value: r.sendP99Ms,
        limit: BUDGET.messageSendP99Ms,
        direction: '≤',
        unit: 'ms',
      }),
      (r) =>
        `send p50 ${ms(r.sendP50Ms)}, p99 ${ms(r.sendP99Ms)} (${r.messages} messages, ${r.streamsPerServer} streams per server)`,
    ],
    [
      'Messages: delivery to a stream on another server p99 ≤ 250 ms',
      (r) => ({
        label: 'delivery p99',
        value: r.deliveryP99Ms,
        limit: BUDGET.messageDeliveryP99Ms,
        direction: '≤',
        unit: 'ms',
      }),
      (r) => `p50 ${ms(r.deliveryP50Ms)}, p99 ${ms(r.deliveryP99Ms)}`,
    ],
    [
      'Messages: ≤ 50 KB of server memory per idle stream',
      (r) => ({
        label: 'memory per idle stream',
        value: r.kbPerIdleStream,
        limit: BUDGET.kbPerIdleStream,
        direction: '≤',
        unit: 'KB',
      }),
      (r) => `${r.kbPerIdleStream.toFixed(1)} KB per stream`,
    ],
  ];
  return budgets.map(([budget, figure, detail]) =>
    !m
      ? notMeasured(budget, 'message-streams not run')
      : m.error
        ? failed(budget, m.error)
        : check(budget, detail(m), [figure(m)]),
  );
}

/** The alerts' fan-out budgets (bench/alerts-fanout.ts): a create's answer, and every mail sent. */
export function checkFanOutBudgets(result: BenchResult): BudgetCheck[] {
  const checks: BudgetCheck[] = [];
  let name: string;
  for (const engine of ['pglite', 'postgres'] as const) {
    const f = result.fanOut.find((r) => r.engine === engine);
    const sizeNote =
      f && f.alerts !== BUDGET.fanOutAlerts
        ? ` (run used ${f.alerts} alerts, budget is for ${BUDGET.fanOutAlerts})`
        : '';
    const size = { label: `run with ${BUDGET.fanOutAlerts} alerts`, ok: sizeNote === '' };
    name = `${engine}: creating a listing that matches 1,000 alerts answers in ≤ 1.5× (or +10 ms) the time with none`;
    if (!f) checks.push(notMeasured(name, 'alerts-fanout not run'));
    else if (f.error) checks.push(failed(name, f.error));
    else {
      const without = f.createMedianMsWithoutAlerts;
      const withAlerts = f.createMedianMsWith1000MatchingAlerts;
      const limit = Math.max(
        without * BUDGET.fanOutCreateFactor,
        without + BUDGET.fanOutCreateSlackMs,
      );
      checks.push(
        check(
          name,
          `median of ${f.samples}: ${ms(without)} without, ${ms(withAlerts)} with (×${(withAlerts / without).toFixed(2)}; limit ${ms(limit)})${sizeNote}`,
          [
            {
              label: 'create median with the alerts',
              value: withAlerts,
              limit,
              direction: '≤',
              unit: 'ms',
            },
          ],
          [size],
        ),
      );
    }
    name = `${engine}: every mail of a listing matching 1,000 alerts queued and sent within 60 s`;
    if (!f) checks.push(notMeasured(name, 'alerts-fanout not run'));
    else if (f.error) checks.push(failed(name, f.error));
    else
      checks.push(
        check(
          name,
          `${f.matchedListings} listings × ${f.alerts} alerts: ${f.mailsSent} mails sent in ${f.fanOutSeconds.toFixed(2)} s, ${f.deliveriesLeft} deliveries left${sizeNote}`,
          [
            {
              label: 'fan-out',
              value: f.fanOutSeconds,
              limit: BUDGET.fanOutSeconds,
              direction: '≤',
              unit: 's',
            },
          ],
          [
            { label: 'every mail sent', ok: f.mailsSent >= f.alerts },
            { label: 'no delivery left', ok: f.deliveriesLeft === 0 },
            size,
          ],
        ),
      );
  }
  return checks;
}
