import type pg from 'pg';

export type NotificationHandler = (payload: string) => void;

/** Stops listening; the last handler of a channel stops the LISTEN. */
export type Unlisten = () => Promise<void>;

/**
 * PostgreSQL `LISTEN` on one dedicated connection, outside the pool: a pooled connection would be
 * handed to queries and miss notifications. When the connection drops (database restart, network) it
 * reconnects with a growing delay, listens again, and calls every `onReconnect`: notifications sent
 * while it was away are lost, so listeners treat a reconnection as "anything may have changed".
 */
export class PgNotificationListener {
  #client: pg.Client | null = null;
  #connecting: Promise<void> | null = null;
  #closed = false;
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

  async close(): Promise<void> {
    this.#closed = true;
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
      for (const { onNotify } of this.#channels.get(message.channel) ?? []) {
        onNotify(message.payload ?? '');
      }
    });
    const lost = () => {
      if (this.#client !== client) return;
      this.#client = null;
      client.end().catch(() => {});
      this.#scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', lost);
    try {
      await client.connect();
      for (const channel of this.#channels.keys()) await client.query(`LISTEN ${quote(channel)}`);
    } catch (error) {
      client.end().catch(() => {});
      throw error;
    }
    if (this.#closed) {
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
    this.#delayMs = 100;
  }

  #scheduleReconnect(): void {
    if (this.#closed || this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#connect().then(
        () => {
          for (const handlers of this.#channels.values()) {
            for (const { onReconnect } of handlers) onReconnect?.();
          }
        },
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
