import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRODUCT_VERSION } from '@campus-books/common/version';

const root = path.resolve(import.meta.dirname, '../../../..');
const versionOf = (file: string) =>
  (JSON.parse(readFileSync(path.join(root, file), 'utf8')) as { version: string }).version;

describe('the product version', () => {
  it('is semantic, and the same in every package.json', () => {
    expect(PRODUCT_VERSION).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
    for (const file of [
      'package.json',
      'packages/common/package.json',
      'packages/server/package.json',
      'packages/web/package.json',
      'packages/e2e/package.json',
    ]) {
      expect(versionOf(file), file).toBe(PRODUCT_VERSION);
    }
  });

  it('has its notes in CHANGELOG.md', () => {
    const changelog = readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
    const released = PRODUCT_VERSION.replace(/-.*$/, '');
    expect(changelog).toMatch(new RegExp(`^## ${released.replaceAll('.', '\\.')}\\b`, 'm'));
  });
});
