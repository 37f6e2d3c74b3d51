import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import type { ConversationEvent, SeenMark } from '@campus-books/common/conversation.schemas';
import type { Db } from '../../db/database';
import type { ConversationEventRow } from '../../db/conversations.schema';
import { rowsOf } from '../../db/rows';
import { isPartySql } from '../../deal/deal.sql';
import type { OfferListing } from '@campus-books/common/offer-sets';
import { toEvent } from './conversations.service';
import { setsOfEvents } from './offer-sets';

/** The channel the events' trigger NOTIFYs on (migration 0017): `<id> <seller id> <buyer id>`. */
export const EVENTS_CHANNEL = 'conversation_events';

/** An event as a live stream sends it: its commit-ordered `seq` is the stream's event id. */
export interface LiveEvent {
  seq: number;
  event: ConversationEvent;
}

export interface Subscriber {
  /** The event, for this subscriber's user; called in `seq` order. */
  send(live: LiveEvent): void;
  /** The other side read a conversation (both show read receipts): `event: seen`, no stream id. */
  seen(mark: SeenMark): void;
  /** Notifications may have been lost (the LISTEN connection was re-made): read from the cursor. */
  resync(): void;
  /** A comment line that keeps proxies from closing an idle stream. */
  heartbeat(): void;
}

interface EventRow {
  id: string | number;
  seq: string | number | null;
  conversation_id: string;
  kind: ConversationEventRow['kind'];
  sender_id: string | null;
  body: string | null;
  amount: string | number | null;
  offer_id: string | null;
  photo_ids: string[];
  created_at: Date | string;
  seller_id: string | null;
  buyer_id: string | null;
  listing_id: string | null;
  sender_suspended: boolean;
}

const EVENT_COLUMNS = sql`e.id, e.seq, e.conversation_id, e.kind, e.sender_id, e.body, e.amount,
  e.offer_id, e.photo_ids, e.created_at, c.seller_id, c.buyer_id, c.listing_id,
  coalesce(s.suspended_at IS NOT NULL, false) AS sender_suspended`;

/** The event as `viewerId` sees it; null when hidden from them (a suspended student's message). */
function liveEventFor(row: EventRow, viewerId: string, listings: OfferListing[]): LiveEvent | null {
  if (row.seq === null) return null;
  if (row.sender_suspended && row.sender_id !== viewerId) return null;
  const event = toEvent(
    {
      id: Number(row.id),
      seq: Number(row.seq),
      conversationId: row.conversation_id,
      kind: row.kind,
      senderId: row.sender_id,
      body: row.body,
      amount: row.amount === null ? null : Number(row.amount),
      offerId: row.offer_id,
      photoIds: row.photo_ids,
      createdAt: new Date(row.created_at),
    },
    { sellerId: row.seller_id, buyerId: row.buyer_id },
    listings,
  );
  return { seq: Number(row.seq), event };
}

/** Each row's offer set ([] for events that are not offers), read per conversation. */
async function setsOfRows(db: Db, rows: EventRow[]): Promise<OfferListing[][]> {
  const sets = new Map<EventRow, OfferListing[]>();
  const offersByConversation = new Map<string, EventRow[]>();
  for (const row of rows.filter((r) => r.offer_id !== null)) {
    offersByConversation.set(row.conversation_id, [
      ...(offersByConversation.get(row.conversation_id) ?? []),
      row,
    ]);
  }
  for (const group of offersByConversation.values()) {
    const first = group[0]!;
    const conversation = {
      sellerId: first.seller_id,
      buyerId: first.buyer_id,
      listingId: first.listing_id,
    };
    const groupSets = await setsOfEvents(
      db,
      conversation,
      group.map((row) => ({ offerId: row.offer_id })),
    );
    group.forEach((row, i) => sets.set(row, groupSets[i]!));
  }
  return rows.map((row) => sets.get(row) ?? []);
}

/** The latest seq: a stream opened without a cursor starts after it. */
export async function latestSeq(db: Db): Promise<number> {
  const [row] = await rowsOf<{ seq: string | number | null }>(
    db,
    sql`SELECT max(seq) AS seq FROM conversation_events`,
  );
  return Number(row?.seq ?? 0);
}

/** The user's events after `afterSeq`, in seq order, at most `limit` (a stream catching up). */
export async function eventsAfter(
  db: Db,
  userId: string,
  afterSeq: number,
  limit = 500,
): Promise<{ events: LiveEvent[]; lastSeq: number; more: boolean }> {
  const rows = await rowsOf<EventRow>(
    db,
    sql`SELECT ${EVENT_COLUMNS}
        FROM conversation_events e
        JOIN conversations c ON c.id = e.conversation_id
        LEFT JOIN users s ON s.id = e.sender_id
        WHERE e.seq > ${afterSeq} AND ${isPartySql('c', userId)}
        ORDER BY e.seq
        LIMIT ${limit}`,
  );
  const sets = await setsOfRows(db, rows);
  const events = rows.flatMap((row, i) => liveEventFor(row, userId, sets[i]!) ?? []);
  const lastSeq = rows.length > 0 ? Number(rows.at(-1)!.seq) : afterSeq;
  return { events, lastSeq, more: rows.length === limit };
}

async function eventById(db: Db, id: number): Promise<EventRow | undefined> {
  const [row] = await rowsOf<EventRow>(
    db,
    sql`SELECT ${EVENT_COLUMNS}
        FROM conversation_events e
        JOIN conversations c ON c.id = e.conversation_id
        LEFT JOIN users s ON s.id = e.sender_id
        WHERE e.id = ${id}`,
  );
  return row;
}

/**
 * The live streams of one app server, by user. One LISTEN (the database's one listening
 * connection) feeds them all: a NOTIFY names the event and its two participants, and the row is
 * read once, only when one of them has a stream here. Notifications arrive in commit order and are
 * handled one at a time, so each stream gets its events in seq order. One heartbeat timer serves
 * every stream, and runs only while there is one.
 */
export class ConversationHub {
  readonly #byUser = new Map<string, Set<Subscriber>>();
  #queue: Promise<void> = Promise.resolve();
  #timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly heartbeatMs: number,
  ) {}

  /** Open streams (tests count them back to zero). */
  get streams(): number {
    let count = 0;
    for (const set of this.#byUser.values()) count += set.size;
    return count;
  }

  get timers(): number {
    return this.#timer ? 1 : 0;
  }

  subscribe(userId: string, subscriber: Subscriber): () => void {
    let set = this.#byUser.get(userId);
    if (!set) this.#byUser.set(userId, (set = new Set()));
    set.add(subscriber);
    this.#timer ??= setInterval(() => this.#beat(), this.heartbeatMs);
    return () => {
      set.delete(subscriber);
      if (set.size === 0 && this.#byUser.get(userId) === set) this.#byUser.delete(userId);
      if (this.#byUser.size === 0 && this.#timer) {
        clearInterval(this.#timer);
        this.#timer = null;
      }
    };
  }

  /** A NOTIFY's payload: `<event id> <seller id or -> <buyer id or ->`. */
  notify(payload: string): void {
    const [id, ...participants] = payload.split(' ');
    const here = participants.filter((p) => this.#byUser.has(p));
    if (here.length === 0 || !id) return;
    this.#queue = this.#queue
      .then(async () => {
        const row = await eventById(this.db, Number(id));
        if (!row) return;
        const [listings] = await setsOfRows(this.db, [row]);
        for (const userId of new Set(here)) {
          const live = liveEventFor(row, userId, listings!);
          if (!live) continue;
          for (const subscriber of this.#byUser.get(userId) ?? []) subscriber.send(live);
        }
      })
      .catch((error: unknown) => {
        this.log.warn({ err: error }, 'live event could not be read; streams resync');
        this.reconnected();
      });
  }

  /**
   * A moved read mark's NOTIFY (conversations.repository's SEEN_CHANNEL): `<conversation id>
   * <recipient id> <mark> <time>`, sent only when both students show read receipts. Queued behind
   * the events, so "Seen" never reaches a stream before the message it covers.
   */
  seen(payload: string): void {
    const [conversationId, recipientId, upTo, at] = payload.split(' ');
    if (!conversationId || !recipientId || !upTo || !at || !this.#byUser.has(recipientId)) return;
    const mark: SeenMark = { conversationId, seenUpTo: Number(upTo), seenAt: at };
    this.#queue = this.#queue.then(() => {
      for (const subscriber of this.#byUser.get(recipientId) ?? []) subscriber.seen(mark);
    });
  }

  /** The LISTEN connection was re-made: every stream reads what it may have missed. */
  reconnected(): void {
    for (const set of this.#byUser.values()) for (const subscriber of set) subscriber.resync();
  }

  /** Ends every stream (the server is stopping): browsers reconnect to another server. */
  closeAll(end: (subscriber: Subscriber) => void): void {
    for (const set of [...this.#byUser.values()])
      for (const subscriber of [...set]) end(subscriber);
  }

  #beat(): void {
    for (const set of this.#byUser.values()) for (const subscriber of set) subscriber.heartbeat();
  }
}
