// Stops `npm start` (and the other entry points) on a Node.js older than package.json's `engines`
// with a message that says what to install, instead of an error deep in the build.
//   node scripts/check-node.mjs
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The problem with running `version` under `range` (">=MAJOR.MINOR"), or null when it is fine. */
export function nodeVersionProblem(version, range) {
  const wanted = /^>=\s*(\d+)\.(\d+)/.exec(range);
  const have = /^v?(\d+)\.(\d+)/.exec(version);
  if (!wanted || !have) return null;
  const [wantMajor, wantMinor] = [Number(wanted[1]), Number(wanted[2])];
  const [major, minor] = [Number(have[1]), Number(have[2])];
  if (major > wantMajor || (major === wantMajor && minor >= wantMinor)) return null;
  return (
    `Campus Books needs Node.js ${wantMajor}.${wantMinor} or later; this is Node.js ${version.replace(/^v/, '')}.\n` +
    `Install Node.js ${wantMajor}.${wantMinor}+ (Debian 13's nodejs package, or Node.js 22 LTS from ` +
    `nodejs.org or NodeSource; Debian 12's nodejs is 18 and cannot run it), then run the command again.`
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const problem = nodeVersionProblem(process.version, pkg.engines.node);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}
