import { AsyncResource } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@campus-books/common/api';
import { currentCampusWork, type ServedCampus } from '../../campuses/campus-context';
import { followingDb } from '../../campuses/campus-database';
import type { CampusRouting } from '../../campuses/campus-routing';
import { campusChannel } from '../../campuses/campus-schema';
import { currentUser, REQUIRE_VERIFIED_USER_ERRORS } from '../../plugins/sessions';
import {
  ConversationHub,
  EVENTS_CHANNEL,
  eventsAfter,
  latestSeq,
  type LiveEvent,
  type Subscriber,
} from './live-events';
import { SEEN_CHANNEL } from './conversations.repository';

/** A stream whose client reads too slowly is closed past this much unsent text; it resumes. */
const MAX_BUFFERED_BYTES = 1_000_000;

const hubs = new WeakMap<object, Map<string, ConversationHub>>();
/**
 * The hub of an app (tests count its streams and timers): the default campus's, or with `campus`
 * (a key of a many-campus installation's directory) that campus's.
 */
export const hubOf = (app: FastifyInstance, campus = '') => hubs.get(app.server)?.get(campus);

const cursorText = z.string().regex(/^\d{1,18}$/, 'must be a stream event id');
const streamQuery = z.strictObject(
  { after: cursorText.optional().describe('Resume after this event id (as Last-Event-ID)') },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'is not a parameter' : undefined) },
);

/**
 * GET /api/conversations/events: the caller's new messages, offers and system lines as
 * Server-Sent Events, on whichever app server it reaches (a NOTIFY carries each event to every
 * server). `Last-Event-ID` (sent by the browser when it reconnects) or `?after=` resumes exactly
 * after the last event received; without either the stream starts with the next event.
 */
export default async function streamRoutes(
  fastify: FastifyInstance,
  options: { campuses?: readonly ServedCampus[]; watch?: CampusRouting['watch'] },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.database;
  const byCampus = new Map<string, ConversationHub>();
  hubs.set(app.server, byCampus);
  /** Each hub's LISTENs, by campus key ('' the default campus's). */
  const unlistens = new Map<string, (() => Promise<void>)[]>();
  const stopListening = async (key: string) => {
    for (const unlisten of unlistens.get(key)?.splice(0) ?? []) await unlisten();
  };
  /**
   * A hub's LISTENs: its campus's own channels on its server's one LISTEN connection (the default
   * campus's, `public`, are the plain channels). Made again on the new server when the campus moves.
   */
  async function listenFor(campus: ServedCampus | null, hub: ConversationHub): Promise<void> {
    const key = campus?.key ?? '';
    const listen = campus ? campus.listen : app.database.listen;
    const channel = (name: string) => campusChannel(name, campus?.schema ?? 'public');
    const made = unlistens.get(key) ?? [];
    unlistens.set(key, made);
    made.push(
      await listen(
        channel(EVENTS_CHANNEL),
        (payload) => hub.notify(payload),
        () => hub.reconnected(),
      ),
    );
    // A lost "Seen" is found again when the thread is read (a reconnect reads it), so no resync here.
    made.push(await listen(channel(SEEN_CHANNEL), (payload) => hub.seen(payload)));
  }
  /**
   * A hub per campus (decision 024), fed by its campus's channels, reading with the campus's own
   * handle wherever the campus is: a campus's events reach its streams only.
   */
  async function openHub(campus: ServedCampus | null): Promise<void> {
    const hub = new ConversationHub(
      campus ? followingDb(campus) : db,
      app.log,
      app.config.conversations.streamHeartbeatMs,
    );
    byCampus.set(campus?.key ?? '', hub);
    await listenFor(campus, hub);
  }
  await openHub(null);
  for (const campus of options.campuses ?? []) await openHub(campus);
  const ends = new Map<Subscriber, () => void>();
  const endStreams = (hub: ConversationHub) =>
    hub.closeAll((subscriber) => ends.get(subscriber)?.());
  // A campus added while running gets its hub before its host answers. A moved campus's hub
  // listens on its new server instead, and its streams read what they missed meanwhile (from the
  // new server): they go on, unbroken. A campus no longer registered has its streams ended.
  const unwatch = options.watch?.(async ({ kind, campus }) => {
    const hub = byCampus.get(campus.key);
    if (kind === 'added') {
      if (!hub) await openHub(campus);
    } else if (kind === 'moved' && hub) {
      await stopListening(campus.key);
      await listenFor(campus, hub);
      hub.reconnected();
    } else if (kind === 'removed' && hub) {
      byCampus.delete(campus.key);
      await stopListening(campus.key);
      unlistens.delete(campus.key);
      endStreams(hub);
    }
  });
  // A stopping server ends its streams first: the browsers reconnect through the balancer.
  app.addHook('preClose', async () => {
    for (const hub of byCampus.values()) endStreams(hub);
  });
  app.addHook('onClose', async () => {
    unwatch?.();
    for (const key of unlistens.keys()) await stopListening(key);
  });

  app.get(
    '/events',
    {
      preValidation: app.requireVerifiedUser,
      schema: {
        querystring: streamQuery,
        response: {
          200: {
            description:
              'text/event-stream: `event: conversation`, `id:` the stream event id, `data:` a ConversationEvent; `event: seen` (no id), `data:` a SeenMark: the other side read a conversation (both students show read receipts)',
            content: { 'text/event-stream': { schema: z.string() } },
          },
          ...errorResponses({
            400: 'A parameter is not valid',
            ...REQUIRE_VERIFIED_USER_ERRORS,
          }),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      // The request's campus's hub; a campus without one is never served another's.
      const hub = byCampus.get(currentCampusWork()?.key ?? '');
      if (!hub) throw new Error('no live events hub for this campus');
      const header = request.headers['last-event-id'];
      const resumeFrom = cursorText.safeParse(header).success ? header : request.query.after;
      // A new stream starts after the latest event, read before it subscribes: an event saved
      // meanwhile is then after the cursor, so the first catch-up sends it (read after subscribing,
      // it would be at or before the cursor and dropped as already sent).
      let cursor: number | null =
        resumeFrom === undefined ? await latestSeq(db) : Number(resumeFrom);

      reply.hijack();
      const res = reply.raw;
      // No compression and no buffering on the way (nginx reads X-Accel-Buffering).
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
        connection: 'keep-alive',
      });
      res.write('retry: 2000\n\n');

      let closed = false;
      let syncing = true;
      const waiting: LiveEvent[] = [];
      const write = (live: LiveEvent) => {
        if (closed || (cursor !== null && live.seq <= cursor)) return;
        cursor = live.seq;
        res.write(`id: ${live.seq}\nevent: conversation\ndata: ${JSON.stringify(live.event)}\n\n`);
        if (res.writableLength > MAX_BUFFERED_BYTES) end();
      };
      const subscriber: Subscriber = {
        send: (live) => (syncing ? waiting.push(live) : write(live)),
        seen: (mark) => {
          if (!closed) res.write(`event: seen\ndata: ${JSON.stringify(mark)}\n\n`);
        },
        // Called from a LISTEN's reconnection or a campus's move: it reads as this request's
        // campus, in the request's context (outside it the database facade is the default campus's).
        resync: AsyncResource.bind(() => void catchUp()),
        heartbeat: () => {
          if (!closed) res.write(': ping\n\n');
        },
      };
      const unsubscribe = hub.subscribe(user.id, subscriber);
      app.metrics.eventStreamOpened();
      function end() {
        if (closed) return;
        closed = true;
        unsubscribe();
        ends.delete(subscriber);
        app.metrics.eventStreamClosed();
        res.end();
      }
      ends.set(subscriber, end);
      res.on('close', end);

      /**
       * Sends what the database holds after the cursor, then what arrived live meanwhile. A call
       * while one runs (a resync) makes the running one read once more.
       */
      let running: Promise<void> | null = null;
      let again = false;
      function catchUp(): Promise<void> {
        if (running) {
          again = true;
          return running;
        }
        syncing = true;
        running = (async () => {
          try {
            do {
              again = false;
              if (cursor === null) {
                cursor = await latestSeq(db);
                continue;
              }
              for (let more = true; more && !closed;) {
                const page = await eventsAfter(db, user.id, cursor);
                for (const live of page.events) write(live);
                cursor = Math.max(cursor ?? 0, page.lastSeq);
                more = page.more;
              }
            } while (again && !closed);
            syncing = false;
            for (const live of waiting.splice(0)) write(live);
          } catch (error) {
            request.log.warn({ err: error }, 'event stream could not catch up; closing it');
            end();
          } finally {
            running = null;
          }
        })();
        return running;
      }
      await catchUp();
    },
  );
}
