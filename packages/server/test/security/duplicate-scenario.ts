import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { ApiRouteKey } from '@campus-books/common/api-routes';
import {
  callRouteData,
  type ApiAnswer,
  type ApiCallArguments,
} from '@campus-books/common/call-route';
import { appInjector } from '../api-caller';
import { moderationLog } from '../../src/db/moderation.schema';
import { listings } from '../../src/db/schema';
import type { TestUser } from '../helpers';
import type { AttackWorld } from './route-fixtures';

/**
 * What concurrent-duplicates.test.ts and its scenario tables (*-scenarios.ts) share: how many copies
 * of a request arrive at once, what a scenario is, and the requests and checks they are written with.
 */

/** How many copies of one request arrive at once (the red team's figure). */
export const COPIES = 25;

export type Check = (answers: LightMyRequestResponse[]) => Promise<void>;
export interface Scenario {
  /** Builds one valid request; every copy is this same request. */
  prepare(w: AttackWorld): Promise<{ request: InjectOptions; check: Check }>;
}

export const statuses = (answers: LightMyRequestResponse[]) => answers.map((a) => a.statusCode);
export const codes = (answers: LightMyRequestResponse[]) => statuses(answers).sort();
export const successes = (answers: LightMyRequestResponse[]) =>
  answers.filter((a) => a.statusCode < 300).length;

export const json = (
  method: string,
  url: string,
  payload: unknown,
  user?: TestUser,
): InjectOptions => ({
  method: method as 'POST',
  url,
  headers: { 'content-type': 'application/json', ...(user ? { cookie: user.cookie } : {}) },
  payload: JSON.stringify(payload),
});
export const bare = (method: string, url: string, user?: TestUser): InjectOptions => ({
  method: method as 'POST',
  url,
  headers: user ? { cookie: user.cookie } : {},
});

/** A route of the table called on the scenario's app to set it up: its data, or it throws. */
export function setUp<Route extends ApiRouteKey>(
  w: AttackWorld,
  route: Route,
  ...options: ApiCallArguments<Route>
): Promise<ApiAnswer<Route>> {
  return callRouteData(appInjector(w.t.app), route, ...options);
}

/**
 * The JSON of one copy's answer, typed by the route the copies were sent to (the server writes
 * every answer of a route with its response schema, as common's callRoute takes it).
 */
export function copyAnswer<Route extends ApiRouteKey>(
  _route: Route,
  answer: LightMyRequestResponse,
): ApiAnswer<Route> {
  const data: ApiAnswer<Route> = answer.json();
  return data;
}

/** Exactly one audit line for an action done by 25 copies of a request. */
export async function expectLogged(
  w: AttackWorld,
  action: 'dismiss' | 'remove' | 'restore' | 'suspend' | 'unsuspend' | 'seller-delete',
  target: { listingId?: string; userId?: string },
) {
  const rows = await w.t.database.db
    .select()
    .from(moderationLog)
    .where(
      target.listingId
        ? eq(moderationLog.listingId, target.listingId)
        : eq(moderationLog.userId, target.userId!),
    );
  expect(rows.filter((r) => r.action === action)).toHaveLength(1);
}

export async function expectListingStatus(w: AttackWorld, id: string, status: string) {
  const [row] = await w.t.database.db.select().from(listings).where(eq(listings.id, id));
  expect(row?.status).toBe(status);
}
