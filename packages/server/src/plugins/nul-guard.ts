import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors';

export const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';

/**
 * What JSON.parse and the query-string parser make: arrays and objects of plain data (the query
 * parser's objects have a null-prototype class of their own). Buffers and streams (tus) are not.
 */
function isPlainContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  if (Array.isArray(value)) return true;
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as object | null;
  return proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null;
}

interface Visit {
  value: unknown;
  key: string;
  parent: Visit | null;
}

function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let v: Visit | null = visit; v?.parent; v = v.parent) keys.push(v.key);
  return keys.reverse().join('.');
}

/**
 * The dotted path (as validation errors name fields) of the first string holding a NUL, if any.
 * Iterative, depth first: a 10,000-deep JSON body must not overflow the stack.
 */
export function findNul(root: unknown): string | undefined {
  const stack: Visit[] = [{ value: root, key: '', parent: null }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { value } = visit;
    if (typeof value === 'string') {
      if (value.includes('\0')) return pathOf(visit);
      continue;
    }
    if (!isPlainContainer(value)) continue;
    const children: Visit[] = [];
    for (const [key, child] of Object.entries(value)) {
      const childVisit = { value: child, key: key.replaceAll('\0', '\\u0000'), parent: visit };
      if (key.includes('\0')) return pathOf(childVisit);
      children.push(childVisit);
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return undefined;
}

/**
 * PostgreSQL's text cannot hold U+0000 (both engines fail the statement), so a NUL anywhere in the
 * query, path or JSON body is refused before any handler, naming the field, in the API's error
 * shape. After validation, not before: a field whose rule refuses control characters (every text
 * field, `cleanText`) or anything but a link, an id or a calendar answers its own documented message
 * for a NUL as for any other such character; this guard catches what no rule read (a password, a
 * field a route does not validate). Route hooks that run before validation read only the session.
 */
export default fp(async function nulGuardPlugin(app: FastifyInstance) {
  // A callback, not an async function: it runs on every request (docs/performance.md, "Hooks").
  app.addHook('preHandler', (request: FastifyRequest, _reply, done) => {
    for (const [part, value] of [
      ['querystring', request.query],
      ['params', request.params],
      ['body', request.body],
    ] as const) {
      const field = findNul(value);
      if (field === undefined) continue;
      const message =
        part === 'body'
          ? field === ''
            ? `The request body is not valid: ${NUL_MESSAGE}`
            : `${field}: ${NUL_MESSAGE}`
          : `Invalid parameter '${field}': ${NUL_MESSAGE}`;
      return done(new AppError(400, message, [{ field, message: NUL_MESSAGE }]));
    }
    done();
  });
});
