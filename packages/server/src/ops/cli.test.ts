import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE } from '../../test/helpers';
import { addUser, createInstallation, startApp } from '../../test/support/ops-installations';

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), 'cli.ts');

/** The command as `npm run <command> -- …` runs it: its own process, the given environment. */
function run(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
}

describe(`the ops commands as processes (${TEST_ENGINE})`, () => {
  const work = mkdtempSync(path.join(tmpdir(), 'cb-cli-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('prints the usage and exits 64 when called wrongly', async () => {
    const res = await run(['restore'], { DATA_DIR: work });
    expect(res.code).toBe(64);
    expect(res.stderr).toMatch(/npm run restore -- <file>/);
    // A campus is one of a backup's or a restore's, never ignored by another command.
    const migrate = await run(['migrate-data', '--to', 'postgres://x/y', '--campus', 'alpha'], {
      DATA_DIR: work,
    });
    expect(migrate.code).toBe(64);
    expect(migrate.stderr).toMatch(/--campus <key>/);
  });

  // A PostgreSQL source keeps this test fast (no initdb); both engines' code paths have their own tests.
  const onPostgres = it.runIf(TEST_ENGINE === 'postgres');
  onPostgres(
    'backs up with a one-line summary, and exits 65 on a corrupted archive and 66 on a full target',
    async () => {
      const source = await createInstallation('postgres');
      const target = await createInstallation('postgres');
      try {
        const app = await startApp(source);
        await addUser(app);
        await app.close();
        const file = path.join(work, 'cli.tar');
        const backup = await run(['backup', file], source.env);
        expect(backup.code).toBe(0);
        expect(backup.stdout.trim().split('\n')).toHaveLength(1);
        expect(backup.stdout).toMatch(/^backup: 1 users, 0 listings .* in \d+\.\d s -> /);

        const corrupted = path.join(work, 'corrupted.tar');
        const bytes = readFileSync(file);
        const at = bytes.indexOf('{"id":"') + 10; // inside the users table's rows
        bytes[at] = bytes[at]! ^ 1;
        writeFileSync(corrupted, bytes);
        const bad = await run(['restore', corrupted], target.env);
        expect(bad.code).toBe(65);
        expect(bad.stderr).toMatch(/ArchiveError: The archive is corrupted: db\/users\.jsonl/);

        const full = await run(['restore', file], source.env);
        expect(full.code).toBe(66);
        expect(full.stderr).toMatch(/RestoreRefusedError: The target database already holds data/);

        const good = await run(['restore', file], target.env);
        expect(good.code).toBe(0);
        expect(good.stderr).toMatch(/verified: rows .*users 1\/1/);
        expect(good.stdout).toMatch(/^restore: 1 users, 0 listings/);
      } finally {
        await target.close();
        await source.close();
      }
    },
    120_000,
  );

  onPostgres(
    "the backup timer's command, run twice, leaves two dated backups",
    async () => {
      const unit = readFileSync(
        path.resolve(CLI, '../../../../../ops/systemd/campus-books-backup.service'),
        'utf8',
      );
      const execStart = /^ExecStart=(.*)$/m.exec(unit)?.[1] ?? '';
      const prefix = '/usr/bin/npm run backup -- ';
      expect(execStart.startsWith(prefix)).toBe(true);
      const folder = path.join(work, 'timer-backups');
      const args = execStart
        .slice(prefix.length)
        .split(' ')
        .map((arg) => (arg === '/var/backups/campus-books' ? folder : arg));
      expect(args).toContain(folder);
      const source = await createInstallation('postgres');
      try {
        const app = await startApp(source);
        await addUser(app);
        await app.close();
        for (const _ of [1, 2]) {
          const res = await run(['backup', ...args], source.env);
          expect(res.stderr).not.toMatch(/Error/);
          expect(res.code).toBe(0);
        }
        const made = readdirSync(folder);
        expect(made).toHaveLength(2);
        for (const name of made) expect(name).toMatch(/^campus-books-\d{8}T\d{6}Z(-2)?\.tar$/);
      } finally {
        await source.close();
      }
    },
    120_000,
  );
});
