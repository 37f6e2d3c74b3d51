/**
 * Bytes to keep for long (a cached answer's body), in memory of their own, exactly their size.
 *
 * What zlib answers is a view of its output chunk (16 KB), and a small `Buffer.from` a slice of the
 * 8 KB pool that short-lived buffers share: kept as long as a cached answer is, either holds its
 * whole block. A listing's 600-byte brotli answer held 16 KB, and 100 campuses' 89,100 kept
 * listings took 1 GB of memory (docs/performance.md, "Kept bytes"). Node's documentation advises
 * `Buffer.allocUnsafeSlow` for this case.
 */
export function keptBytes(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.byteLength);
  bytes.copy(own);
  return own;
}

/** `text` in UTF-8, in memory of its own (keptBytes). */
export function keptText(text: string): Buffer {
  const own = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'));
  own.write(text, 'utf8');
  return own;
}
