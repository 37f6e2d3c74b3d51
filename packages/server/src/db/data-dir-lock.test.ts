import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir } from './data-dir-lock';

describe('lockDataDir', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  const tempDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cb-lock-'));
    dirs.push(dir);
    return dir;
  };

  it('refuses a directory held by another live process, naming it', async () => {
    const dir = tempDir();
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeFileSync(path.join(dir, 'server.lock'), String(other.pid));
      expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
      expect(() => lockDataDir(dir)).toThrow(new RegExp(`pid ${other.pid}`));
    } finally {
      other.kill();
    }
  });

  it('takes over a stale lock whose process is gone, and releases it', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'server.lock'), '999999999');
    const release = lockDataDir(dir);
    expect(existsSync(path.join(dir, 'server.lock'))).toBe(true);
    release();
    expect(existsSync(path.join(dir, 'server.lock'))).toBe(false);
  });
});
