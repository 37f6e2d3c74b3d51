import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { datedArchive, pruneBackups } from './backup-command';
import { temporaryFolder } from '../../test/temporary-folders';

describe('dated backups (npm run backup -- --dir … --keep …)', () => {
  it('names an archive by its UTC time, and never the name of one already there', async () => {
    const dir = path.join(temporaryFolder('cb-dated-'), 'backups');
    const at = new Date('2026-12-02T03:30:07.123Z');
    const first = await datedArchive(dir, at);
    expect(path.basename(first)).toBe('campus-books-20261202T033007Z.tar');
    expect(existsSync(dir)).toBe(true); // made when missing
    writeFileSync(first, 'x');
    expect(path.basename(await datedArchive(dir, at))).toBe('campus-books-20261202T033007Z-2.tar');
  });

  it('keeps the newest n dated archives and touches no other file', async () => {
    const dir = temporaryFolder('cb-dated-');
    const names = [
      'campus-books-20261130T033000Z.tar',
      'campus-books-20261201T033000Z.tar',
      'campus-books-20261202T033000Z.tar',
      'campus-books-20261202T033000Z-2.tar',
      'campus-books-20261202T033000Z.tar.partial',
      'before-the-upgrade.tar',
    ];
    for (const name of names) writeFileSync(path.join(dir, name), 'x');
    expect(await pruneBackups(dir, 2)).toEqual([
      'campus-books-20261130T033000Z.tar',
      'campus-books-20261201T033000Z.tar',
    ]);
    expect(readdirSync(dir).sort()).toEqual([
      'before-the-upgrade.tar',
      'campus-books-20261202T033000Z-2.tar',
      'campus-books-20261202T033000Z.tar',
      'campus-books-20261202T033000Z.tar.partial',
    ]);
  });
});
