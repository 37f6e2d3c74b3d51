import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { CONVERSATION_EVENT_KINDS } from '@campus-books/common/conversation.schemas';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../test/helpers';
import { insertListings } from '../../test/listing-fixtures';
import { rowsOf } from '../db/rows';
import { PUSH_JOB } from '../features/push/push-job';
import {
  FOR_SALE,
  HUMAN_MESSAGE_KINDS,
  isHumanKind,
  PRICE_LINE,
  RELISTED_FROM,
  RELISTED_LINE,
  roleOf,
  SOLD,
  STATUS_LINES,
} from './deal';
import { dealTriggers, ensureDealTriggers } from './deal-triggers';

describe(`the deal's triggers, generated from its constants (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let sellerId: string;
  let buyerId: string;
  let listingId: string;
  let conversationId: string;
  const query = <T>(statement: ReturnType<typeof sql>) => rowsOf<T>(t.database.db, statement);

  beforeAll(async () => {
    t = await createTestApp();
    const seller = await createUser(t);
    const buyer = await createUser(t);
    sellerId = seller.id;
    buyerId = buyer.id;
    [listingId] = (await insertListings(t, sellerId, [{ regularPrice: 20 }])) as [string];
    const [conversation] = await query<{ id: string }>(
      sql`INSERT INTO conversations (listing_id, listing_name, seller_id, buyer_id)
          VALUES (${listingId}, 'Some Book', ${sellerId}, ${buyerId}) RETURNING id`,
    );
    conversationId = conversation!.id;
    // The seller's device: what the buyer writes is pushed to it.
    await query(sql`INSERT INTO push_subscriptions (user_id, session_id, endpoint, p256dh, auth)
      SELECT ${sellerId}, id, 'https://push.example.edu/1', 'key', 'auth' FROM sessions
      WHERE user_id = ${sellerId} LIMIT 1`);
  });
  afterAll(() => t.close());

  const installedBody = async (name: string) => {
    const [row] = await query<{ prosrc: string }>(
      sql`SELECT prosrc FROM pg_proc WHERE proname = ${name}
          AND pronamespace = 'public'::regnamespace`,
    );
    return row?.prosrc;
  };
  const lastLine = async () => {
    const [row] = await query<{ kind: string; amount: string | null }>(
      sql`SELECT kind, amount FROM conversation_events WHERE conversation_id = ${conversationId}
          ORDER BY id DESC LIMIT 1`,
    );
    return row;
  };
  const setStatus = (status: string, extra = sql``) =>
    query(sql`UPDATE listings SET status = ${status} ${extra} WHERE id = ${listingId}`);

  it('the database holds each trigger as this code generates it', async () => {
    for (const trigger of dealTriggers()) {
      expect(await installedBody(trigger.name), trigger.name).toBe(trigger.body);
    }
    const [push] = await query<{ definition: string }>(
      sql`SELECT pg_get_triggerdef(oid) AS definition FROM pg_trigger
          WHERE tgname = 'push_conversation_event'`,
    );
    const kinds = [...push!.definition.matchAll(/'(\w+)'::text/g)].map(([, kind]) => kind);
    expect(kinds.sort()).toEqual([...HUMAN_MESSAGE_KINDS].sort());
  });

  it('replaces a trigger that differs from the code (an old migration’s), and then reads only its fingerprint', async () => {
    await query(sql`CREATE OR REPLACE FUNCTION public.record_exchange() RETURNS trigger
      LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`);
    await query(sql`COMMENT ON FUNCTION public.record_exchange() IS 'an older version'`);
    await ensureDealTriggers(t.database.db);
    const recordExchange = dealTriggers().find((trigger) => trigger.name === 'record_exchange');
    expect(await installedBody('record_exchange')).toBe(recordExchange!.body);
    // Same code: the fingerprint matches, nothing is redefined.
    await query(sql`CREATE OR REPLACE FUNCTION public.record_exchange() RETURNS trigger
      LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`);
    await query(sql`COMMENT ON FUNCTION public.record_exchange() IS NULL`);
    await ensureDealTriggers(t.database.db);
    expect(await installedBody('record_exchange')).toBe(recordExchange!.body);
  });

  it('pushes what a student writes, by HUMAN_MESSAGE_KINDS, and no system line', async () => {
    for (const kind of CONVERSATION_EVENT_KINDS) {
      const [event] = await query<{ id: string }>(
        sql`INSERT INTO conversation_events (conversation_id, kind, sender_id)
            VALUES (${conversationId}, ${kind}, ${buyerId}) RETURNING id`,
      );
      const jobs = await query(
        sql`SELECT id FROM jobs WHERE name = ${PUSH_JOB} AND payload->>'event' = ${String(event!.id)}`,
      );
      expect(jobs.length, kind).toBe(isHumanKind(kind) ? 1 : 0);
    }
  });

  it("writes each status's line and the price's in the listing's conversations, by the constants", async () => {
    for (const [status, line] of Object.entries(STATUS_LINES)) {
      await setStatus(FOR_SALE);
      await setStatus(status);
      expect((await lastLine())?.kind, status).toBe(line);
    }
    for (const status of RELISTED_FROM) {
      await setStatus(status);
      await setStatus(FOR_SALE);
      expect((await lastLine())?.kind, status).toBe(RELISTED_LINE);
    }
    await query(sql`UPDATE listings SET regular_price = 15 WHERE id = ${listingId}`);
    expect(await lastLine()).toMatchObject({ kind: PRICE_LINE });
    expect(Number((await lastLine())?.amount)).toBe(15);
  });

  it('a sale to a named buyer ends the hold and records the exchange, its sides by roleOf', async () => {
    await setStatus(FOR_SALE);
    await query(sql`UPDATE listings SET held_for = ${buyerId}, held_until = now() + interval '1 day'
      WHERE id = ${listingId}`);
    await setStatus(SOLD, sql`, sold_to = ${buyerId}`);
    const [listing] = await query<{ held_for: string | null }>(
      sql`SELECT held_for FROM listings WHERE id = ${listingId}`,
    );
    expect(listing?.held_for).toBeNull();
    const [exchange] = await query<{ seller_id: string; buyer_id: string }>(
      sql`SELECT seller_id, buyer_id FROM exchanges WHERE listing_id = ${listingId}`,
    );
    const parties = { sellerId: exchange!.seller_id, buyerId: exchange!.buyer_id };
    expect(roleOf(sellerId, parties)).toBe('seller');
    expect(roleOf(buyerId, parties)).toBe('buyer');
  });
});
