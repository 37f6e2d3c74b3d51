import { once } from 'node:events';
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Header, Pack, ReadEntry } from 'tar';

/** Writes a tar archive entry by entry from bytes in memory, waiting for the output to keep up. */
export class ArchiveWriter {
  private readonly pack = new Pack({ portable: true });
  private readonly done: Promise<void>;
  /** Bytes handed to the output so far. */
  bytesWritten = 0;

  constructor(output: Writable) {
    const counter = new Transform({
      transform: (chunk: Buffer, _encoding, callback) => {
        this.bytesWritten += chunk.length;
        callback(null, chunk);
      },
    });
    this.done = pipeline(this.pack, counter, output);
    // finish() reports a failure; this only keeps an abandoned pipeline from crashing the process.
    this.done.catch(() => {});
  }

  async add(path: string, data: Buffer): Promise<void> {
    const header = new Header({
      path,
      size: data.length,
      type: 'File',
      mode: 0o600,
      mtime: new Date(),
    });
    const entry = new ReadEntry(header);
    const consumed = once(entry, 'end');
    this.pack.add(entry);
    entry.end(data);
    await this.unlessClosed(consumed);
    if (!this.pack.flowing) await this.unlessClosed(once(this.pack, 'drain'));
  }

  /** Waits for `step`, but fails as soon as the output fails (a client that hung up). */
  private unlessClosed(step: Promise<unknown>): Promise<unknown> {
    const closed = this.done.then(() => {
      throw new Error('The archive output closed before the backup was complete');
    });
    closed.catch(() => {});
    return Promise.race([step, closed]);
  }

  async finish(): Promise<void> {
    this.pack.end();
    await this.done;
  }

  /** Stops writing after a failure; the output is left incomplete. */
  abort(error: Error): void {
    this.pack.destroy(error);
  }
}
