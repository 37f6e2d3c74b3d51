import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, TEST_ENGINE } from './helpers';
import { freePort, spawnServer, waitHealthy } from './support/server-process';

/** The server from its sources, the way `npm run dev` and the e2e suite start it, with umask 022. */
const withUmask022 = (argv: string[]) => [
  '/bin/sh',
  '-c',
  `umask 022 && exec ${argv.map((arg) => JSON.stringify(arg)).join(' ')}`,
];

const modeOf = (file: string) => lstatSync(file).mode & 0o777;

/** Every file and folder under `dir` (symbolic links not followed), with its permission bits. */
function modesUnder(dir: string): Map<string, number> {
  const modes = new Map<string, number>();
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop()!;
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isSymbolicLink()) continue;
      modes.set(full, modeOf(full));
      if (entry.isDirectory()) stack.push(full);
    }
  }
  return modes;
}

describe(`DATA_DIR is private to the server's account (${TEST_ENGINE})`, () => {
  const root = mkdtempSync(path.join(tmpdir(), 'cb-perms-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('tightens an existing DATA_DIR at start-up and creates every new file 0600', async () => {
    // An installation from before: everything readable by every local user.
    const dataDir = path.join(root, 'data');
    mkdirSync(path.join(dataDir, 'outbox', 'old'), { recursive: true });
    chmodSync(dataDir, 0o755);
    chmodSync(path.join(dataDir, 'outbox'), 0o755);
    chmodSync(path.join(dataDir, 'outbox', 'old'), 0o775);
    const oldMail = path.join(dataDir, 'outbox', 'old', 'reset.eml');
    writeFileSync(oldMail, 'a reset link', { mode: 0o644 });
    chmodSync(oldMail, 0o666);
    // A file outside DATA_DIR, linked from inside it, is none of the server's business.
    const outside = path.join(root, 'outside.txt');
    writeFileSync(outside, 'not ours');
    chmodSync(outside, 0o644);
    symlinkSync(outside, path.join(dataDir, 'link-to-outside'));

    const database = TEST_ENGINE === 'postgres' ? await createPostgresDatabase(false) : undefined;
    const port = await freePort();
    const server = spawnServer(port, {
      env: { DATA_DIR: dataDir, ...(database ? { DATABASE_URL: database.url } : {}) },
      wrap: withUmask022,
    });
    try {
      await waitHealthy(server);
      const signUp = await fetch(`${server.url}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: 'ada.perms@richmond.edu',
          password: 'Secret-123',
          groupmelink: 'https://groupme.com/contact/1',
        }),
      });
      expect(signUp.status, await signUp.text()).toBe(201);
      // The verification mail is written to the outbox in the background.
      const outbox = path.join(dataDir, 'outbox');
      for (let i = 0; i < 300; i += 1) {
        if (readdirSync(outbox).some((f) => f.endsWith('.eml'))) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const newMails = readdirSync(outbox).filter((f) => f.endsWith('.eml'));
      expect(newMails).toHaveLength(1);

      expect(modeOf(dataDir)).toBe(0o700);
      expect(modeOf(oldMail)).toBe(0o600);
      expect(modeOf(path.join(outbox, newMails[0]!))).toBe(0o600);
      expect(modeOf(path.join(dataDir, 'session-secret'))).toBe(0o600);
      if (TEST_ENGINE === 'pglite') {
        expect(statSync(path.join(dataDir, 'db')).isDirectory()).toBe(true);
      }
      const modes = modesUnder(dataDir);
      expect(modes.size).toBeGreaterThan(TEST_ENGINE === 'pglite' ? 100 : 3);
      const open = [...modes].filter(([, mode]) => (mode & 0o077) !== 0);
      expect(open.map(([file, mode]) => `${file} ${mode.toString(8)}`)).toEqual([]);
      expect(modeOf(outside)).toBe(0o644);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      await database?.drop();
    }
    // Files the database wrote while running and at shutdown are private too.
    const open = [...modesUnder(dataDir)].filter(([, mode]) => (mode & 0o077) !== 0);
    expect(open.map(([file, mode]) => `${file} ${mode.toString(8)}`)).toEqual([]);
  }, 240_000);
});
