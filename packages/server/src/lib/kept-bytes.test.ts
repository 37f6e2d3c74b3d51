import { brotliCompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { keptBytes, keptText } from './kept-bytes';
import { ReadyAnswer } from './ready-answer';
import { compressPage } from '../plugins/page-cache';

/** Whether the Buffer is all of the memory it is in (holds nothing more than itself). */
const isOwn = (bytes: Buffer) =>
  bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength;

const text = JSON.stringify({
  name: 'Calculus: Early Transcendentals',
  notes: 'clean '.repeat(200),
});

describe('bytes kept for long', () => {
  it("hold their own memory, not zlib's 16 KB chunk or a slice of the shared pool", () => {
    const compressed = brotliCompressSync(Buffer.from(text));
    // What zlib answers holds far more than itself.
    expect(compressed.buffer.byteLength).toBeGreaterThanOrEqual(16 * 1024);
    expect(compressed.length).toBeLessThan(1024);
    const kept = keptBytes(compressed);
    expect(isOwn(kept)).toBe(true);
    expect(kept.equals(compressed)).toBe(true);
    // A small Buffer.from is a slice of the pool; the kept text is not.
    expect(isOwn(Buffer.from('a short text'))).toBe(false);
    const keptShort = keptText('a short text, é');
    expect(isOwn(keptShort)).toBe(true);
    expect(keptShort.toString('utf8')).toBe('a short text, é');
    // Already its own: kept as it is.
    const own = Buffer.allocUnsafeSlow(4);
    expect(keptBytes(own)).toBe(own);
  });

  it('are what a ready answer and a cached page keep, in each encoding', async () => {
    const answer = new ReadyAnswer(text);
    for (const coding of ['identity', 'br', 'gzip'] as const) {
      expect(isOwn(answer.variant(coding).body), coding).toBe(true);
    }
    expect(answer.variant('gzip').body.equals(gzipSync(Buffer.from(text), { level: 6 }))).toBe(
      true,
    );
    const page = await compressPage(`<main>${text}</main>`, 200);
    expect(isOwn(page.bodies.br)).toBe(true);
    expect(isOwn(page.bodies.gzip)).toBe(true);
  });
});
