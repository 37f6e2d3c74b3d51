/**
 * Lighthouse's accessibility score (mobile preset) of the product's main pages, signed out and signed
 * in, on the built server (`npm run build`) with a small generated catalogue:
 *   node --import tsx bench/accessibility.ts [--size 1000] [--no-pin]
 * Prints one line per page (score, then what failed); docs/performance.md, "Accessibility".
 */
import { parseArgs } from 'node:util';
import { callRouteData } from '@campus-books/common/call-route';
import { prepareDatabase } from './lib/databases';
import { auditAccessibility } from './lib/lighthouse';
import { canPin, startServer } from './lib/server-process';
import { signIn } from './lib/sign-in';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '1000' },
    'no-pin': { type: 'boolean', default: false },
  },
});

const prepared = await prepareDatabase('pglite', Number(values.size), {
  seed: 42,
  postgresUrl: '',
});
const server = await startServer({
  dataDir: prepared.dataDir,
  env: {},
  logLevel: 'warn',
  pin: !values['no-pin'] && canPin(),
});
try {
  const session = await signIn(server.url);
  if (!('cookie' in session)) throw new Error(session.error);
  const id = prepared.seed.sampleListingIds[0]!;
  const listing = await callRouteData(server.url, 'GET /api/listing/get/:id', { params: { id } });
  const course = listing.subject
    ? `${listing.subject}-${listing.courseNumber}`
    : listing.courseNumber;
  const pages: [string, string | undefined][] = [
    ['/', undefined],
    ['/search', undefined],
    [`/listing/${id}`, undefined],
    [`/course/${course}`, undefined],
    ['/sign-in', undefined],
    ['/sign-up', undefined],
    ['/create-listing', session.cookie],
    ['/profile', session.cookie],
  ];
  for (const [page, cookie] of pages) {
    const report = await auditAccessibility(page, `${server.url}${page}`, cookie);
    const ended = new URL(report.finalUrl).pathname;
    const landed = ended === new URL(page, server.url).pathname ? '' : ` -> ${ended}`;
    console.log(
      `${String(report.score).padStart(3)}  ${page}${cookie ? ' (signed in)' : ''}${landed}`,
    );
    for (const failure of report.failed) console.log(`       ${failure}`);
  }
} finally {
  await server.stop();
  await prepared.dispose();
}
