import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { campusChannel, inSchema } from '../campuses/campus-schema';
import type { Db } from '../db/db-type';
import { textLiteral } from '../db/literal';
import { rowsOf } from '../db/rows';
import { PUSH_JOB, PUSH_MAX_ATTEMPTS } from '../features/push/push-job';
import { enqueueInTriggerSql } from '../jobs/job-statements';
import { FOR_SALE, PRICE_LINE, RELISTED_FROM, RELISTED_LINE, SOLD, STATUS_LINES } from './deal';
import { DEAL_ROLES } from './deal';
import { HUMAN_KINDS_SQL, otherPartySql, roleColumns } from './deal.sql';

/**
 * The deal's transitions that every writer of a listing or an event must cause, whichever path it
 * takes (a seller's sale, the expiry job, a moderator, a restore), held by the database as triggers
 * whose bodies are generated here from deal.ts's constants (first written by hand in migrations
 * 0017, 0021 and 0023, same names, replaced at start by ensureDealTriggers):
 * - a listing that stops being for sale ends its hold (`listings_end_hold`);
 * - a listing's new status or price is a system line in each of its conversations
 *   (`listings_conversation_lines`);
 * - a listing sold to a named buyer records the exchange they rate (`record_exchange`);
 * - every event moves its conversation up both inboxes, and its author (by role) has read it; a
 *   NOTIFY at commit names the event and its two students (`conversation_event_written`);
 * - what a student writes in a conversation is pushed to the other side's devices, as jobs of the
 *   job runner (`push_conversation_event`).
 */
export interface DealTrigger {
  /** The function's name (schema public, no argument). */
  name: string;
  /** The plpgsql body between the dollar quotes, as pg_proc.prosrc holds it. */
  body: string;
  /** The CREATE OR REPLACE TRIGGER statement. */
  trigger: string;
}

const text = (query: SQL): string => {
  const { sql: statement, params } = new PgDialect().sqlToQuery(query);
  if (params.length > 0) throw new Error('a trigger body must have no parameters');
  return statement;
};
const lit = textLiteral;

/** The channel each event is NOTIFYd on (the streams' live-events.ts listens to it). */
const EVENTS_CHANNEL = 'conversation_events';

/** Named to run before listings_write_json (BEFORE triggers run in name order). */
const endHold: SQL = sql`
BEGIN
  IF NEW.status <> ${lit(FOR_SALE)} THEN
    NEW.held_for := NULL;
    NEW.held_until := NULL;
    NEW.hold_offer_id := NULL;
  END IF;
  RETURN NEW;
END
`;

const conversationLines: SQL = sql`
DECLARE
  line text;
BEGIN
  IF NEW.status IS DISTINCT FROM OLD.status THEN
    line := CASE
      ${sql.join(
        Object.entries(STATUS_LINES).map(
          ([status, kind]) => sql`WHEN NEW.status = ${lit(status)} THEN ${lit(kind)}`,
        ),
        sql`\n      `,
      )}
      WHEN NEW.status = ${lit(FOR_SALE)} AND OLD.status IN (${sql.join(
        RELISTED_FROM.map((status) => lit(status)),
        sql`, `,
      )}) THEN ${lit(RELISTED_LINE)}
    END;
    IF line IS NOT NULL THEN
      INSERT INTO public.conversation_events (conversation_id, kind)
        SELECT id, line FROM public.conversations WHERE listing_id = NEW.id;
    END IF;
  END IF;
  IF NEW.regular_price IS DISTINCT FROM OLD.regular_price THEN
    INSERT INTO public.conversation_events (conversation_id, kind, amount)
      SELECT id, ${lit(PRICE_LINE)}, NEW.regular_price FROM public.conversations WHERE listing_id = NEW.id;
  END IF;
  RETURN NULL;
END
`;

/** Once per listing and buyer: sold again to the same student after a relist, the same exchange. */
const recordExchange: SQL = sql`
BEGIN
  IF NEW.status = ${lit(SOLD)} AND NEW.sold_to IS NOT NULL
     AND (OLD.status IS DISTINCT FROM ${lit(SOLD)} OR OLD.sold_to IS DISTINCT FROM NEW.sold_to) THEN
    INSERT INTO public.exchanges (listing_id, listing_name, seller_id, buyer_id, sold_at)
    VALUES (NEW.id, NEW.name, NEW.user_id, NEW.sold_to, COALESCE(NEW.sold_at, now()))
    ON CONFLICT (listing_id, buyer_id) DO NOTHING;
  END IF;
  RETURN NULL;
END
`;

/** Each app server reads the NOTIFY's row only when one of the two has a live stream open there. */
const eventWritten: SQL = sql`
DECLARE
  seller uuid;
  buyer uuid;
BEGIN
  UPDATE public.conversations c SET
    last_event_id = GREATEST(c.last_event_id, NEW.id),
    last_event_at = GREATEST(c.last_event_at, NEW.created_at),
    ${sql.join(
      DEAL_ROLES.map((role) => {
        const read = roleColumns('c', 'read_id')[role];
        return sql`${sql.raw(`${role}_read_id`)} = CASE WHEN NEW.sender_id = ${roleColumns('c')[role]}
      THEN GREATEST(${read}, NEW.id) ELSE ${read} END`;
      }),
      sql`,
    `,
    )}
  WHERE c.id = NEW.conversation_id
  RETURNING c.seller_id, c.buyer_id INTO seller, buyer;
  PERFORM pg_notify(${lit(EVENTS_CHANNEL)},
    concat_ws(' ', NEW.id::text, coalesce(seller::text, '-'), coalesce(buyer::text, '-')));
  RETURN NULL;
END
`;

/** Nothing is written for a student without a subscribed device. */
const pushEvent: SQL = sql`
DECLARE
  recipient uuid;
BEGIN
  SELECT ${otherPartySql('c', sql`NEW.sender_id`)}
    INTO recipient FROM public.conversations c WHERE c.id = NEW.conversation_id;
  IF recipient IS NULL THEN RETURN NULL; END IF;
  ${enqueueInTriggerSql(
    PUSH_JOB,
    sql`jsonb_build_object('subscription', s.id, 'event', NEW.id)`,
    sql`FROM public.push_subscriptions s WHERE s.user_id = recipient`,
    PUSH_MAX_ATTEMPTS,
  )}
  RETURN NULL;
END
`;

/** The deal's triggers as this code defines them. */
export function dealTriggers(): DealTrigger[] {
  return [
    {
      name: 'listings_end_hold',
      body: text(endHold),
      trigger: `CREATE OR REPLACE TRIGGER listings_end_hold BEFORE UPDATE OF status ON public.listings
        FOR EACH ROW EXECUTE FUNCTION public.listings_end_hold()`,
    },
    {
      name: 'listings_conversation_lines',
      body: text(conversationLines),
      trigger: `CREATE OR REPLACE TRIGGER listings_conversation_lines
        AFTER UPDATE OF status, regular_price ON public.listings
        FOR EACH ROW EXECUTE FUNCTION public.listings_conversation_lines()`,
    },
    {
      name: 'record_exchange',
      body: text(recordExchange),
      trigger: `CREATE OR REPLACE TRIGGER listings_record_exchange
        AFTER UPDATE OF status, sold_to ON public.listings
        FOR EACH ROW EXECUTE FUNCTION public.record_exchange()`,
    },
    {
      name: 'conversation_event_written',
      body: text(eventWritten),
      trigger: `CREATE OR REPLACE TRIGGER conversation_event_written
        AFTER INSERT ON public.conversation_events
        FOR EACH ROW EXECUTE FUNCTION public.conversation_event_written()`,
    },
    {
      name: 'push_conversation_event',
      body: text(pushEvent),
      // Only what a student wrote is pushed (to the other side): the WHEN from HUMAN_MESSAGE_KINDS.
      trigger: `CREATE OR REPLACE TRIGGER push_conversation_event
        AFTER INSERT ON public.conversation_events
        FOR EACH ROW WHEN (NEW.sender_id IS NOT NULL AND NEW.kind IN ${text(HUMAN_KINDS_SQL)})
        EXECUTE FUNCTION public.push_conversation_event()`,
    },
  ];
}

/** The function holding the fingerprint of this version of the deal's triggers. */
const FINGERPRINT_ON = 'public.record_exchange()';

/** The statements that define the deal's triggers, and the fingerprint naming this version. */
export function dealTriggerDefinition(): { statements: string[]; fingerprint: string } {
  const statements = dealTriggers().flatMap(({ name, body, trigger }) => {
    if (body.includes('$deal$')) throw new Error(`${name}'s body holds its own quote`);
    return [
      `CREATE OR REPLACE FUNCTION public.${name}() RETURNS trigger LANGUAGE plpgsql AS $deal$${body}$deal$`,
      trigger,
    ];
  });
  const fingerprint = createHash('sha256').update(statements.join(';\n')).digest('hex');
  return { statements, fingerprint };
}

/**
 * Brings the database's deal triggers in step with this code, after the migrations and under their
 * lock (two servers starting at once take turns; each statement is CREATE OR REPLACE): when the
 * fingerprint differs (a first start after 0017/0021/0023, a changed constant), redefines them
 * all in one transaction. A start with the same code reads one comment.
 */
export async function ensureDealTriggers(db: Db, schema = 'public'): Promise<void> {
  const { statements, fingerprint } = dealTriggerDefinition();
  const fingerprintOn = inSchema(FINGERPRINT_ON, schema);
  const [current] = await rowsOf<{ fingerprint: string | null }>(
    db,
    sql`SELECT obj_description(to_regprocedure(${fingerprintOn}), 'pg_proc') AS fingerprint`,
  );
  if (current?.fingerprint === fingerprint) return;
  await db.transaction(async (tx) => {
    for (const statement of statements) {
      await tx.execute(sql.raw(inCampusSchema(statement, schema)));
    }
    await tx.execute(sql.raw(`COMMENT ON FUNCTION ${fingerprintOn} IS '${fingerprint}'`));
  });
}

/**
 * A trigger's statement for a campus's schema (decision 024): its tables and functions, and its
 * NOTIFY channel, which carries the campus so another campus's listeners never hear it.
 */
export function inCampusSchema(statement: string, schema: string): string {
  return inSchema(statement, schema).replaceAll(
    `pg_notify('${EVENTS_CHANNEL}'`,
    `pg_notify('${campusChannel(EVENTS_CHANNEL, schema)}'`,
  );
}
