// The sign-in wave alone (issue 46): STUDENTS students sign in at once through the real route, with
// nothing else going on, WAVES times on the same server; then as many one after another. Prints each
// wave's rate beside the rate one password check allows on the server's cores (as the rush's wave
// budget counts it), and what each of the server's threads spent per sign-in (/proc, user + system):
// the request thread, the password thread, V8's own. The rush (bench/rush.ts) measures the same wave
// while the students who signed in browse on the same cores; this tells how much of a wave's time is
// the server's own work per sign-in. Against a running server (pinned to its cores: `taskset -c 0`)
// and its PostgreSQL database, to which it adds its students:
//
//   BASE_URL=http://127.0.0.1:3000 SERVER_PID=1234 DATABASE_URL=postgres://… \
//     taskset -c 1 node --import tsx bench/sign-in-wave.ts          (STUDENTS=200 WAVES=3)
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../packages/server/src/db/database';
import { users } from '../packages/server/src/db/schema';
import { hashPassword, verifyPassword } from '../packages/server/src/features/accounts/password';
import { signIn } from './lib/sign-in';
import { percentile } from './lib/stats';

const STUDENTS = Number(process.env.STUDENTS ?? 200);
const WAVES = Number(process.env.WAVES ?? 3);
const PASSWORD = 'Wave-pass1';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required (see the top of bench/sign-in-wave.ts)`);
  return value;
}

/** Each thread of a process (the request thread, the others by id and name) and its CPU so far, ms. */
function threadsCpuMs(pid: number): Map<string, number> {
  const tick = 10; // ms per clock tick (USER_HZ 100)
  return new Map(
    readdirSync(`/proc/${pid}/task`).map((tid) => {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const label = Number(tid) === pid ? 'the request thread' : `thread ${tid} (${name})`;
      return [label, (Number(fields[11]) + Number(fields[12])) * tick];
    }),
  );
}

/** The threads that spent at least a tenth of a millisecond per sign-in between two readings. */
function perSignIn(before: Map<string, number>, after: Map<string, number>, signIns: number) {
  return [...after]
    .map(([thread, ms]) => [thread, (ms - (before.get(thread) ?? 0)) / signIns] as const)
    .filter(([, ms]) => ms >= 0.1)
    .map(([thread, ms]) => `${thread} ${ms.toFixed(2)} ms`)
    .join(', ');
}

const baseUrl = required('BASE_URL');
const serverPid = Number(required('SERVER_PID'));
const cores = Number(
  /Cpus_allowed_list:\s*(\S+)/
    .exec(readFileSync(`/proc/${serverPid}/status`, 'utf8'))?.[1]
    ?.split(',')
    .reduce((n, range) => {
      const [a, b] = range.split('-').map(Number);
      return n + (b === undefined ? 1 : b - a! + 1);
    }, 0) ?? NaN,
);

const database = await openDatabase({ engine: 'postgres', url: required('DATABASE_URL') });
const run = randomUUID().slice(0, 8);
let emails: string[];
let hashMs: number;
try {
  const passwordHash = await hashPassword(PASSWORD);
  const times: number[] = [];
  for (let i = 0; i < 11; i++) {
    const started = performance.now();
    if (!(await verifyPassword(passwordHash, PASSWORD))) throw new Error('the check failed');
    if (i >= 2) times.push(performance.now() - started);
  }
  hashMs = percentile(times, 50);
  const rows = await database.db
    .insert(users)
    .values(
      Array.from({ length: STUDENTS * (WAVES + 1) }, (_, i) => ({
        firstName: 'Wave',
        lastName: `Student ${i}`,
        username: `wave${run}${i}`,
        email: `wave.${i}.${run}@richmond.edu`,
        passwordHash,
        groupmelink: 'https://groupme.com/contact/1',
        emailVerifiedAt: new Date(),
      })),
    )
    .returning({ email: users.email });
  emails = rows.map((r) => r.email);
} finally {
  await database.close();
}

const hashAllows = (cores * 1000) / hashMs;
console.log(
  `one check alone ${hashMs.toFixed(1)} ms × ${cores} server cores allows ${hashAllows.toFixed(1)} sign-ins/s`,
);
const failed = (results: Array<{ cookie: string } | { error: string }>) =>
  results.filter((r) => 'error' in r).length;
for (let wave = 0; wave < WAVES; wave++) {
  const before = threadsCpuMs(serverPid);
  const started = performance.now();
  const results = await Promise.all(
    emails
      .slice(wave * STUDENTS, (wave + 1) * STUDENTS)
      .map((email) => signIn(baseUrl, { email, password: PASSWORD })),
  );
  const seconds = (performance.now() - started) / 1000;
  const rate = STUDENTS / seconds;
  console.log(
    `wave ${wave + 1}: ${STUDENTS} at once in ${seconds.toFixed(2)} s = ${rate.toFixed(1)}/s ` +
      `(×${(rate / hashAllows).toFixed(2)} of the hash's rate), ${failed(results)} failed; per sign-in: ` +
      perSignIn(before, threadsCpuMs(serverPid), STUDENTS),
  );
}
const before = threadsCpuMs(serverPid);
const started = performance.now();
let failures = 0;
for (const email of emails.slice(WAVES * STUDENTS)) {
  failures += failed([await signIn(baseUrl, { email, password: PASSWORD })]);
}
console.log(
  `one after another: ${STUDENTS} in ${((performance.now() - started) / 1000).toFixed(2)} s, ${failures} failed; per sign-in: ` +
    perSignIn(before, threadsCpuMs(serverPid), STUDENTS),
);
