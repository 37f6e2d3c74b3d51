import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const script = pathToFileURL(path.join(root, 'scripts/check-node.mjs')).href;
const { nodeVersionProblem } = (await import(script)) as {
  nodeVersionProblem: (version: string, range: string) => string | null;
};
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
};

describe('npm start on an old Node.js', () => {
  it("stops with the Node.js to install when older than package.json's engines", () => {
    expect(pkg.engines.node).toBe('>=20.19');
    expect(nodeVersionProblem('v18.20.4', pkg.engines.node)).toMatch(
      /needs Node\.js 20\.19 or later; this is Node\.js 18\.20\.4\.\nInstall Node\.js 20\.19\+/,
    );
    expect(nodeVersionProblem('v20.18.1', pkg.engines.node)).not.toBeNull();
    expect(nodeVersionProblem('v20.19.0', pkg.engines.node)).toBeNull();
    expect(nodeVersionProblem('v22.1.0', pkg.engines.node)).toBeNull();
  });

  it('is checked first by npm start and npm run start:server', () => {
    for (const name of ['start', 'start:server']) {
      expect(pkg.scripts[name]).toMatch(/^node scripts\/check-node\.mjs && /);
    }
  });
});
