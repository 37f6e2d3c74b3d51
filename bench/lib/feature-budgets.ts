import type { BenchResult, BudgetCheck } from './results';
import type { RushResult } from './rush';
import { BUDGET, check, ms, notMeasured } from './budget-limits';

/** The rush's budget: no error at all, and p99 ≤ 250 ms for every kind but sign-in. */
export function checkRush(rush: RushResult | null | undefined): BudgetCheck {
  const name =
    'PostgreSQL 100k, rush of 200 students at once: 0 errors, p99 ≤ 250 ms for every kind but sign-in';
  if (!rush) return notMeasured(name, 'rush not run');
  if (rush.error) return check(name, false, rush.error);
  const errors = rush.kinds.reduce((n, k) => n + k.errors, 0);
  const ok =
    rush.kinds.length > 0 &&
    errors === 0 &&
    rush.kinds.every((k) => k.kind === 'sign-in' || k.p99 <= BUDGET.rushP99Ms);
  const detail =
    rush.kinds
      .map(
        (k) =>
          `${k.kind} ${k.requests}× p50 ${ms(k.p50)} p99 ${ms(k.p99)}${k.errors > 0 ? ` ${k.errors} errors` : ''}`,
      )
      .join('; ') +
    `; server CPU ${ms(rush.serverCpuMsPerSignIn)} per sign-in (${ms(rush.serverCpuMsPerQuietSignIn)} alone)`;
  if (rush.size !== BUDGET.rushListings || rush.students !== BUDGET.rushStudents)
    return notMeasured(
      name,
      `run at ${rush.size.toLocaleString('en-US')} listings with ${rush.students} students, the budget is for ${BUDGET.rushListings.toLocaleString('en-US')} and ${BUDGET.rushStudents} (${ok ? 'would pass' : 'would fail'}): ${detail}`,
    );
  return check(name, ok, detail);
}

/** The messages' budgets (bench/message-streams.ts): send, delivery across servers, memory. */
export function checkMessageBudgets(m: BenchResult['messageStreams']): BudgetCheck[] {
  const checks: BudgetCheck[] = [];
  for (const [budget, ok, figure] of [
    [
      'Messages: send p99 ≤ 50 ms with 1,000 open streams per server (PostgreSQL)',
      (r: NonNullable<typeof m>) => r.sendP99Ms <= BUDGET.messageSendP99Ms,
      (r: NonNullable<typeof m>) =>
        `send p50 ${ms(r.sendP50Ms)}, p99 ${ms(r.sendP99Ms)} (${r.messages} messages, ${r.streamsPerServer} streams per server)`,
    ],
    [
      'Messages: delivery to a stream on another server p99 ≤ 250 ms',
      (r: NonNullable<typeof m>) => r.deliveryP99Ms <= BUDGET.messageDeliveryP99Ms,
      (r: NonNullable<typeof m>) => `p50 ${ms(r.deliveryP50Ms)}, p99 ${ms(r.deliveryP99Ms)}`,
    ],
    [
      'Messages: ≤ 50 KB of server memory per idle stream',
      (r: NonNullable<typeof m>) => r.kbPerIdleStream <= BUDGET.kbPerIdleStream,
      (r: NonNullable<typeof m>) => `${r.kbPerIdleStream.toFixed(1)} KB per stream`,
    ],
  ] as const) {
    checks.push(
      !m
        ? notMeasured(budget, 'message-streams not run')
        : m.error
          ? check(budget, false, m.error)
          : check(budget, ok(m), figure(m)),
    );
  }
  return checks;
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
    name = `${engine}: creating a listing that matches 1,000 alerts answers in ≤ 1.5× (or +10 ms) the time with none`;
    if (!f) checks.push(notMeasured(name, 'alerts-fanout not run'));
    else if (f.error) checks.push(check(name, false, f.error));
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
          withAlerts <= limit && sizeNote === '',
          `median of ${f.samples}: ${ms(without)} without, ${ms(withAlerts)} with (×${(withAlerts / without).toFixed(2)}; limit ${ms(limit)})${sizeNote}`,
        ),
      );
    }
    name = `${engine}: every mail of a listing matching 1,000 alerts queued and sent within 60 s`;
    if (!f) checks.push(notMeasured(name, 'alerts-fanout not run'));
    else if (f.error) checks.push(check(name, false, f.error));
    else
      checks.push(
        check(
          name,
          f.deliveriesLeft === 0 &&
            f.mailsSent >= f.alerts &&
            f.fanOutSeconds <= BUDGET.fanOutSeconds &&
            sizeNote === '',
          `${f.matchedListings} listings × ${f.alerts} alerts: ${f.mailsSent} mails sent in ${f.fanOutSeconds.toFixed(2)} s, ${f.deliveriesLeft} deliveries left${sizeNote}`,
        ),
      );
  }
  return checks;
}
