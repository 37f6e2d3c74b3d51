import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../lib/errors';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** Visible ASCII only, at most 200 characters; a UUID per form session is what the web app sends. */
const KEY = /^[\x21-\x7e]{1,200}$/;

export const BAD_IDEMPOTENCY_KEY =
  'The Idempotency-Key header must be 1 to 200 visible characters (a UUID is best)';

/** The request's Idempotency-Key, undefined when it sent none (older clients), 400 when malformed. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !KEY.test(value)) throw badRequest(BAD_IDEMPOTENCY_KEY);
  return value;
}
