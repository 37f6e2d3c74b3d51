import { parseArgs } from 'node:util';

export type Engine = 'pglite' | 'postgres';

export interface BenchOptions {
  sizes: number[];
  engines: Engine[];
  /** Seconds of measured load per scenario. */
  duration: number;
  /** Seconds of unmeasured load before each scenario. */
  warmup: number;
  connections: number;
  seed: number;
  lighthouse: boolean;
  build: boolean;
  /** Only these scenarios (names), or all. */
  scenarios: string[] | null;
  postgresUrl: string;
  logLevel: string;
  /** Rewrite the results section of docs/performance.md. */
  updateDocs: boolean;
  isFullRun: boolean;
  /** The alerts fan-out (scenario alerts-fanout): matching alerts, and listings created per sample set. */
  fanOutAlerts: number;
  fanOutSamples: number;
  /** The campus file the server serves and the catalogue is made for (CAMPUS_CONFIG), or null: the default campus. */
  campus: string | null;
  /**
   * The many-campus run (issue 45, PostgreSQL only): this many campuses of --sizes listings each on
   * one database and one app server, beside one campus of the same size; null: the ordinary bench.
   */
  campuses: number | null;
}

export const USAGE = `npm run bench -- [options]
  --sizes 1000,10000,100000   catalogue sizes (listings)
  --engines pglite,postgres   database engines
  --duration 10               seconds of load per scenario
  --warmup 2                  seconds of unmeasured load before each scenario
  --connections 50            concurrent connections of the load generator
  --seed 42                   catalogue seed
  --scenarios a,b             only these scenarios (see the table's names; alerts-fanout is the
                              alerts fan-out, once per engine, without a catalogue; message-streams
                              is the conversations' streams on two servers, PostgreSQL only; rush
                              is the term's first morning, 200 students at once, on the largest
                              PostgreSQL catalogue; health-at-start restarts the server after the
                              scenarios and loads health in its first 5 s, then 15 s later)
  --fanout-alerts 1000        matching alerts in the fan-out (its budgets are for 1,000)
  --fanout-samples 15         listings created with, and without, the alerts (median of each)
  --no-lighthouse             skip Lighthouse
  --no-build                  use packages/web/dist and packages/server/dist as they are
  --postgres-url URL          server to create scratch databases on
  --log-level info            the server's LOG_LEVEL (npm start's default is info)
  --campus FILE               the campus file the server serves and the catalogue is made for
                              (CAMPUS_CONFIG; e.g. packages/server/campus/examples/pacific-crest.yaml;
                              default: the default campus, or CAMPUS_CONFIG when set)
  --update-docs               rewrite docs/performance.md's results (a full run always does)
  --campuses N                the many-campus run (PostgreSQL only): N campuses c001… at
                              c001.bench.example…, each with --sizes listings (one size, default
                              10000), one app server, the per-campus scenarios spread over every
                              host beside one campus's; memory per idle campus, connections held`;

const list = (value: string) =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

export function parseOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      sizes: { type: 'string', default: '1000,10000,100000' },
      engines: { type: 'string', default: 'pglite,postgres' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '50' },
      seed: { type: 'string', default: '42' },
      scenarios: { type: 'string' },
      'no-lighthouse': { type: 'boolean', default: false },
      'no-build': { type: 'boolean', default: false },
      'postgres-url': {
        type: 'string',
        default: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      },
      'log-level': { type: 'string', default: 'info' },
      'fanout-alerts': { type: 'string', default: '1000' },
      'fanout-samples': { type: 'string', default: '15' },
      'update-docs': { type: 'boolean', default: false },
      campus: { type: 'string' },
      campuses: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const campuses = values.campuses === undefined ? null : Number(values.campuses);
  if (campuses !== null && (!Number.isInteger(campuses) || campuses < 2 || campuses > 9999))
    throw new Error('--campuses: a whole number from 2 to 9,999');
  const sizesGiven = argv.some((a) => a === '--sizes' || a.startsWith('--sizes='));
  const sizes = list(campuses !== null && !sizesGiven ? '10000' : values.sizes).map(Number);
  if (campuses !== null && sizes.length !== 1)
    throw new Error('--campuses: one size (listings per campus), e.g. --sizes 10000');
  if (
    campuses !== null &&
    list(values.engines).includes('pglite') &&
    argv.some((a) => a.startsWith('--engines'))
  )
    throw new Error('--campuses: PostgreSQL only (PGlite serves one campus)');
  if (sizes.some((s) => !Number.isInteger(s) || s < 100))
    throw new Error('--sizes: whole numbers ≥ 100');
  const engines = campuses !== null ? ['postgres'] : list(values.engines);
  for (const engine of engines) {
    if (engine !== 'pglite' && engine !== 'postgres')
      throw new Error(`--engines: unknown ${engine}`);
  }
  const number = (name: string, value: string, min: number) => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < min) throw new Error(`--${name}: a number ≥ ${min}`);
    return n;
  };
  const isFullRun =
    campuses === null &&
    (argv.length === 0 ||
      (sizes.length === 3 &&
        engines.length === 2 &&
        !values['no-lighthouse'] &&
        !values.scenarios &&
        Number(values['fanout-alerts']) === 1000));
  return {
    sizes,
    engines: engines as Engine[],
    duration: number('duration', values.duration, 1),
    warmup: number('warmup', values.warmup, 0),
    connections: number('connections', values.connections, 1),
    seed: number('seed', values.seed, 0),
    lighthouse: !values['no-lighthouse'],
    build: !values['no-build'],
    scenarios: values.scenarios ? list(values.scenarios) : null,
    postgresUrl: values['postgres-url'],
    logLevel: values['log-level'],
    updateDocs: values['update-docs'] || isFullRun,
    isFullRun,
    fanOutAlerts: number('fanout-alerts', values['fanout-alerts'], 1),
    fanOutSamples: number('fanout-samples', values['fanout-samples'], 1),
    campus: values.campus ?? process.env.CAMPUS_CONFIG ?? null,
    campuses,
  };
}
