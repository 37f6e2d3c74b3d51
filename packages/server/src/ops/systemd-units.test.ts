import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const UNITS = path.resolve(import.meta.dirname, '../../../../ops/systemd');
const ANALYZE = '/usr/bin/systemd-analyze';
if (!existsSync(ANALYZE)) {
  console.warn(
    `*** ${ANALYZE} is missing (apt-get install systemd): SKIPPING the unit files' check ***`,
  );
}

describe('the systemd units in ops/systemd', () => {
  it.runIf(existsSync(ANALYZE))('pass systemd-analyze verify', () => {
    const units = readdirSync(UNITS).filter((name) => /\.(service|timer)$/.test(name));
    expect(units.sort()).toEqual([
      'campus-books-backup.service',
      'campus-books-backup.timer',
      'campus-books.service',
      'campus-books@.service',
    ]);
    // `campus-books@.service` is a template: verify an instance of it.
    const args = units.map((name) => path.join(UNITS, name.replace('@.service', '@3001.service')));
    const result = spawnSync(ANALYZE, ['verify', ...args], {
      encoding: 'utf8',
      cwd: UNITS,
      env: { ...process.env, SYSTEMD_LOG_LEVEL: 'notice' },
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
