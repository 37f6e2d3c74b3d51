import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ArchiveWriter } from './archive-writer';

describe('ArchiveWriter', () => {
  it('fails instead of waiting forever when its output goes away (a client hung up)', async () => {
    let received = 0;
    const output = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, callback) {
        received += chunk.length;
        if (received > 64 * 1024) output.destroy(new Error('socket hang up'));
        else callback();
      },
    });
    const writer = new ArchiveWriter(output);
    const writeMany = async () => {
      for (let i = 0; i < 100; i += 1) await writer.add(`files/${i}`, Buffer.alloc(32 * 1024, i));
    };
    await expect(writeMany()).rejects.toThrow(/socket hang up|output closed/);
  });
});
