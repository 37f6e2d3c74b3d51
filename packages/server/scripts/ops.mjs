// The operator's commands as `npm run backup | restore | migrate-data | demo` run them: the bundle
// `npm run build` writes (dist/ops.js, dist/demo.js; scripts/build.mjs), in plain Node, like the
// server itself. Without a build yet (a fresh clone), it says so instead of a stack trace.
//   node packages/server/scripts/ops.mjs <ops|demo> [arguments…]
import { existsSync } from 'node:fs';

const [bundle] = process.argv.slice(2);
if (bundle !== 'ops' && bundle !== 'demo') {
  console.error('Usage: node packages/server/scripts/ops.mjs <ops|demo> [arguments…]');
  process.exit(64);
}
const file = new URL(`../dist/${bundle}.js`, import.meta.url);
if (!existsSync(file)) {
  console.error(
    `The commands run the built server, and ${file.pathname} is missing: run \`npm run build\` ` +
      '(or `npm start`, which builds) first.',
  );
  process.exit(69); // EX_UNAVAILABLE
}
// The bundle reads its arguments from process.argv, as when it is run directly.
process.argv.splice(2, 1);
await import(file.href);
