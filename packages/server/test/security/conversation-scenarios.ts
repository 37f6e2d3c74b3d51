import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import {
  conversationEvents,
  conversationReports,
  conversations,
  offers,
  userBlocks,
} from '../../src/db/conversations.schema';
import { listings } from '../../src/db/schema';
import { createUser, type TestUser } from '../helpers';
import { createListingAs } from '../listing-fixtures';
import { codes, COPIES, setUp, type Scenario } from './duplicate-scenario';
import type { AttackWorld } from './route-fixtures';

/** 25 copies of each conversation route at once (concurrent-duplicates.test.ts runs them). */
const send = (method: 'POST' | 'DELETE', url: string, user: TestUser, payload?: unknown) => ({
  method,
  url,
  headers: { cookie: user.cookie },
  ...(payload === undefined ? {} : { payload: payload as object }),
});

/** A seller's listing and a buyer's conversation about it, with the buyer's first message. */
async function conversationOf(w: AttackWorld, price = 40) {
  const seller = await createUser(w.t);
  const buyer = await createUser(w.t);
  const listingId = (await createListingAs(w.t, seller, { regularPrice: price }))._id;
  const { conversationId } = await setUp(w, 'POST /api/conversations', {
    as: buyer,
    body: { listingId, text: 'Hello' },
  });
  return { seller, buyer, listingId, conversationId };
}

async function eventsOf(w: AttackWorld, conversationId: string) {
  return w.t.database.db
    .select()
    .from(conversationEvents)
    .where(eq(conversationEvents.conversationId, conversationId));
}

async function openOfferOf(w: AttackWorld, c: Awaited<ReturnType<typeof conversationOf>>) {
  const sent = await setUp(w, 'POST /api/conversations/:id/offers', {
    as: c.buyer,
    params: { id: c.conversationId },
    body: { amount: 30 },
  });
  return sent.event.offerId!;
}

function firstMessage(path: string): Scenario {
  return {
    async prepare(w) {
      const seller = await createUser(w.t);
      const buyer = await createUser(w.t);
      const listingId = (await createListingAs(w.t, seller))._id;
      return {
        request: send('POST', path, buyer, { listingId, text: 'Still available?' }),
        // Every copy is a message (as a send is); all in one conversation.
        check: async (answers) => {
          expect(codes(answers)).toEqual(Array(COPIES).fill(201));
          const rows = await w.t.database.db
            .select()
            .from(conversations)
            .where(eq(conversations.listingId, listingId));
          expect(rows).toHaveLength(1);
          expect(await eventsOf(w, rows[0]!.id)).toHaveLength(COPIES);
        },
      };
    },
  };
}

export const CONVERSATION_SCENARIOS: Record<string, Scenario> = {
  'POST /api/conversations': firstMessage('/api/conversations'),
  'POST /api/conversations/': firstMessage('/api/conversations/'),
  'POST /api/conversations/:id/messages': {
    async prepare(w) {
      const c = await conversationOf(w);
      return {
        request: send('POST', `/api/conversations/${c.conversationId}/messages`, c.seller, {
          text: 'Yes',
        }),
        check: async (answers) => {
          expect(codes(answers)).toEqual(Array(COPIES).fill(201));
          expect(await eventsOf(w, c.conversationId)).toHaveLength(COPIES + 1);
        },
      };
    },
  },
  'POST /api/conversations/:id/read': {
    async prepare(w) {
      const c = await conversationOf(w);
      return {
        request: send('POST', `/api/conversations/${c.conversationId}/read`, c.seller, {
          upTo: Number.MAX_SAFE_INTEGER,
        }),
        check: async (answers) => {
          expect(codes(answers)).toEqual(Array(COPIES).fill(200));
          const [row] = await w.t.database.db
            .select()
            .from(conversations)
            .where(eq(conversations.id, c.conversationId));
          expect(row!.sellerReadId).toBe(row!.lastEventId);
        },
      };
    },
  },
  'POST /api/conversations/offers': {
    async prepare(w) {
      const seller = await createUser(w.t);
      const buyer = await createUser(w.t);
      const listingId = (await createListingAs(w.t, seller, { regularPrice: 40 }))._id;
      const other = (await createListingAs(w.t, seller, { regularPrice: 20 }))._id;
      return {
        // One device's offer (one client id) from the listing's page, tapped 25 times.
        request: send('POST', '/api/conversations/offers', buyer, {
          listingId,
          amount: 50,
          listingIds: [other],
          text: 'Both?',
          clientId: 'offer-from-page-0001',
        }),
        check: async (answers) => {
          expect(codes(answers)).toEqual(Array(COPIES).fill(201));
          const rows = await w.t.database.db
            .select()
            .from(conversations)
            .where(eq(conversations.listingId, listingId));
          expect(rows).toHaveLength(1);
          expect(await eventsOf(w, rows[0]!.id)).toHaveLength(2);
          const made = await w.t.database.db
            .select()
            .from(offers)
            .where(eq(offers.conversationId, rows[0]!.id));
          expect(made).toHaveLength(1);
        },
      };
    },
  },
  'POST /api/conversations/:id/offers': {
    async prepare(w) {
      const c = await conversationOf(w);
      return {
        request: send('POST', `/api/conversations/${c.conversationId}/offers`, c.buyer, {
          amount: 25,
        }),
        // Each copy is an offer that replaces the one before: one stays open.
        check: async (answers) => {
          expect(codes(answers)).toEqual(Array(COPIES).fill(201));
          const open = await w.t.database.db
            .select()
            .from(offers)
            .where(and(eq(offers.conversationId, c.conversationId), eq(offers.status, 'open')));
          expect(open).toHaveLength(1);
        },
      };
    },
  },
  ...Object.fromEntries(
    (['accept', 'decline'] as const).map((verb) => [
      `POST /api/conversations/:id/offers/:offerId/${verb}`,
      {
        async prepare(w: AttackWorld) {
          const c = await conversationOf(w);
          const offerId = await openOfferOf(w, c);
          return {
            request: send(
              'POST',
              `/api/conversations/${c.conversationId}/offers/${offerId}/${verb}`,
              c.seller,
            ),
            check: async (answers: LightMyRequestResponse[]) => {
              expect(codes(answers)).toEqual([200, ...Array(COPIES - 1).fill(409)]);
              const kinds = (await eventsOf(w, c.conversationId)).map((e) => e.kind);
              const line = verb === 'accept' ? 'offer_accepted' : 'offer_declined';
              expect(kinds.filter((k) => k === line)).toHaveLength(1);
              expect(kinds.filter((k) => k === 'pending')).toHaveLength(verb === 'accept' ? 1 : 0);
            },
          };
        },
      } satisfies Scenario,
    ]),
  ),
  'POST /api/conversations/:id/report': {
    async prepare(w) {
      const c = await conversationOf(w);
      return {
        request: send('POST', `/api/conversations/${c.conversationId}/report`, c.seller, {
          reason: 'harassment',
        }),
        // One report per student and conversation: the other copies are told it is already made.
        check: async (answers) => {
          expect(codes(answers)).toEqual([201, ...Array(COPIES - 1).fill(409)]);
          const rows = await w.t.database.db
            .select()
            .from(conversationReports)
            .where(eq(conversationReports.conversationId, c.conversationId));
          expect(rows).toHaveLength(1);
        },
      };
    },
  },
  'POST /api/conversations/listing/:listingId/release': {
    async prepare(w) {
      const c = await conversationOf(w);
      const offerId = await openOfferOf(w, c);
      await w.t.app.inject(
        send('POST', `/api/conversations/${c.conversationId}/offers/${offerId}/accept`, c.seller),
      );
      return {
        request: send('POST', `/api/conversations/listing/${c.listingId}/release`, c.seller),
        check: async (answers) => {
          expect(codes(answers)).toEqual([200, ...Array(COPIES - 1).fill(409)]);
          const kinds = (await eventsOf(w, c.conversationId)).map((e) => e.kind);
          expect(kinds.filter((k) => k === 'hold_released')).toHaveLength(1);
        },
      };
    },
  },
  'POST /api/conversations/listing/:listingId/sold': {
    async prepare(w) {
      const c = await conversationOf(w);
      return {
        request: send('POST', `/api/conversations/listing/${c.listingId}/sold`, c.seller, {
          buyerId: c.buyer.id,
        }),
        check: async (answers) => {
          expect(codes(answers)).toEqual(Array(COPIES).fill(200));
          const [row] = await w.t.database.db
            .select()
            .from(listings)
            .where(eq(listings.id, c.listingId));
          expect(row).toMatchObject({ status: 'sold', soldTo: c.buyer.id });
          const kinds = (await eventsOf(w, c.conversationId)).map((e) => e.kind);
          expect(kinds.filter((k) => k === 'sold')).toHaveLength(1);
        },
      };
    },
  },
  ...Object.fromEntries(
    (['POST', 'DELETE'] as const).map((method) => [
      `${method} /api/blocks/:userId`,
      {
        async prepare(w: AttackWorld) {
          const blocker = await createUser(w.t);
          const blocked = await createUser(w.t);
          if (method === 'DELETE') {
            await w.t.app.inject(send('POST', `/api/blocks/${blocked.id}`, blocker));
          }
          return {
            request: send(method, `/api/blocks/${blocked.id}`, blocker),
            check: async (answers: LightMyRequestResponse[]) => {
              expect(codes(answers)).toEqual(Array(COPIES).fill(200));
              const rows = await w.t.database.db
                .select()
                .from(userBlocks)
                .where(eq(userBlocks.blockerId, blocker.id));
              expect(rows).toHaveLength(method === 'POST' ? 1 : 0);
            },
          };
        },
      } satisfies Scenario,
    ]),
  ),
};
