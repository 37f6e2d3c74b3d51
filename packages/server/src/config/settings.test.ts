import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEMO_DATA_DIR } from '../ops/demo';
import { commandSettings, settingsSections } from './settings';

const srcDir = fileURLToPath(new URL('..', import.meta.url));

/** The names of environment variables the server's code reads (tests aside). */
function environmentReads(): Map<string, string> {
  const reads = new Map<string, string>();
  const files = readdirSync(srcDir, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
  );
  const access =
    /\b(?:process\.env|env|source)(?:\.([A-Z][A-Z0-9_]+)\b|\[['"]([A-Z][A-Z0-9_]+)['"]\])/g;
  for (const file of files) {
    for (const match of readFileSync(path.join(srcDir, file), 'utf8').matchAll(access)) {
      reads.set(match[1] ?? match[2]!, file);
    }
  }
  return reads;
}

describe('settings', () => {
  it('every environment variable the code reads is in a documented schema', () => {
    const documented = new Set(settingsSections.flatMap((s) => Object.keys(s.schema.shape)));
    const reads = environmentReads();
    expect(reads.size).toBeGreaterThan(50);
    const undocumented = [...reads].filter(([name]) => !documented.has(name));
    expect(
      undocumented,
      'add them to a schema in src/config/ (settings.ts lists the sections)',
    ).toEqual([]);
  });

  it("the demo folder's documented default is the demo's", () => {
    expect(commandSettings.parse({}).DEMO_DATA_DIR).toBe(DEMO_DATA_DIR);
  });
});
