import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { sharedFreshReads } from '../lib/fresh-reads';

export type NotificationHandler = (payload: string) => void;

/** Stops listening; the last handler of a channel stops the LISTEN. */
export type Unlisten = () => Promise<void>;

/**
 * PostgreSQL `LISTEN` on one dedicated connection, outside the pool: a pooled connection would be
 * handed to queries and miss notifications. When the connection drops (database restart, network) it
 * reconnects with a growing delay, listens again, and calls every `onReconnect`: notifications sent
 * while it was away are lost, so listeners treat a reconnection as "anything may have changed".
 *
 * `heard()` is a fence: it resolves once every notification of a transaction that committed before
 * the call has been handed to the handlers. The connection sends a NOTIFY on a channel of its own
 * and waits to hear it back: PostgreSQL delivers notifications "in the order in which the
 * transactions committed" (its NOTIFY page), so every earlier commit's come first, and the handlers
 * run as each arrives. Callers arriving together share one (lib/fresh-reads.ts), never one sent
 * before their call. It fails while the connection is down, and a fence sent on a connection lost
 * before its answer fails too; a new connection calls every `onReconnect` before anything else can
 * use it, so a fence that succeeds after a gap follows the listeners' "anything may have changed".
 */
export class PgNotificationListener {
  #client: pg.Client | null = null;
  #connecting: Promise<void> | null = null;
  #closed = false;
  /** A connection was lost since the last `onReconnect` calls (none before the first connection). */
  #wasLost = false;
  /** This listener's own channel for its fences: no other server listens to it. */
  readonly #fenceChannel = `heard_${randomBytes(8).toString('hex')}`;
  #fenceCount = 0;
  /** The fences sent and not yet heard back, by payload. */
  readonly #fences = new Map<string, { heard: () => void; lost: (error: Error) => void }>();
  #delayMs = 100;
  #timer: NodeJS.Timeout | null = null;
  readonly #channels = new Map<
    string,
    Set<{ onNotify: NotificationHandler; onReconnect?: () => void }>
  >();

  constructor(private readonly newClient: () => pg.Client) {}

  async listen(
    channel: string,
    onNotify: NotificationHandler,
    onReconnect?: () => void,
  ): Promise<Unlisten> {
    const entry = { onNotify, onReconnect };
    let handlers = this.#channels.get(channel);
    const first = !handlers;
    if (!handlers) this.#channels.set(channel, (handlers = new Set()));
    handlers.add(entry);
    await this.#connect();
    if (first && this.#client) await this.#client.query(`LISTEN ${quote(channel)}`);
    return async () => {
      handlers.delete(entry);
      if (handlers.size > 0 || this.#channels.get(channel) !== handlers) return;
      this.#channels.delete(channel);
      await this.#client?.query(`UNLISTEN ${quote(channel)}`).catch(() => {});
    };
  }

  /** The fence (see the class): every notification committed before the call has been handled. */
  readonly heard: () => Promise<void> = sharedFreshReads(() => this.#fence());

  async #fence(): Promise<void> {
    await this.#connect();
    const client = this.#client;
    if (!client) throw new Error('not listening: the connection is closed');
    const payload = String((this.#fenceCount += 1));
    const heard = new Promise<void>((resolve, reject) =>
      this.#fences.set(payload, { heard: resolve, lost: reject }),
    );
    // Its connection may be lost before the NOTIFY's answer: the failure is the query's to report.
    heard.catch(() => {});
    try {
      await client.query(`NOTIFY ${quote(this.#fenceChannel)}, '${payload}'`);
    } catch (error) {
      this.#fences.delete(payload);
      throw error;
    }
    return heard;
  }

  #loseFences(): void {
    const error = new Error('not listening: the connection was lost');
    for (const { lost } of this.#fences.values()) lost(error);
    this.#fences.clear();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#loseFences();
    if (this.#timer) clearTimeout(this.#timer);
    await this.#connecting?.catch(() => {});
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => {});
  }

  #connect(): Promise<void> {
    if (this.#client || this.#closed) return Promise.resolve();
    this.#connecting ??= this.#open().finally(() => (this.#connecting = null));
    return this.#connecting;
  }

  async #open(): Promise<void> {
    const client = this.newClient();
    client.on('notification', (message) => {
      if (message.channel === this.#fenceChannel) {
        const fence = this.#fences.get(message.payload ?? '');
        this.#fences.delete(message.payload ?? '');
        fence?.heard();
        return;
      }
      for (const { onNotify } of this.#channels.get(message.channel) ?? []) {
        onNotify(message.payload ?? '');
      }
    });
    const lost = () => {
      if (this.#client !== client) return;
      this.#client = null;
      this.#wasLost = true;
      this.#loseFences();
      client.end().catch(() => {});
      this.#scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', lost);
    try {
      await client.connect();
      // A fence's NOTIFY need not wait for the disk: it writes nothing but the notification.
      await client.query('SET synchronous_commit = off');
      await client.query(`LISTEN ${quote(this.#fenceChannel)}`);
      for (const channel of this.#channels.keys()) await client.query(`LISTEN ${quote(channel)}`);
    } catch (error) {
      client.end().catch(() => {});
      throw error;
    }
    if (this.#closed) {
      await client.end().catch(() => {});
      return;
    }
    this.#delayMs = 100;
    this.#client = client;
    if (!this.#wasLost) return;
    // Before any other use of the new connection (a fence above all): what was missed is said.
    this.#wasLost = false;
    for (const handlers of this.#channels.values()) {
      for (const { onReconnect } of handlers) onReconnect?.();
    }
  }

  #scheduleReconnect(): void {
    if (this.#closed || this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#connect().then(
        () => {},
        () => {
          this.#delayMs = Math.min(this.#delayMs * 2, 5_000);
          this.#scheduleReconnect();
        },
      );
    }, this.#delayMs);
    this.#timer.unref();
  }
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;
