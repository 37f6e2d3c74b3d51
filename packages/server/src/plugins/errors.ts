import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ApiErrorBody } from '@campus-books/common/api';
import { MESSAGES } from '@campus-books/common/messages';
import { AppError, errorBody } from '../lib/errors';
import { setBareSecurityHeaders } from './security-headers';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: { keys?: string[]; issue?: { path?: PropertyKey[]; message?: string } };
}

const SPEC_MESSAGES: ReadonlySet<string> = new Set(
  Object.values(MESSAGES).filter((m) => typeof m === 'string'),
);
/** The spec's messages built from a setting (a GroupMe prefix, the campus's domain). */
const SPEC_MESSAGE_FORMS = [/^Must be /, /^Use your @\S+ address$/];

function fieldOf(issue: ValidationIssue): string {
  const fromZod = issue.params?.issue?.path;
  if (fromZod && fromZod.length > 0) return fromZod.map(String).join('.');
  // A strict object's unknown keys sit on the object itself: name the keys, not the object.
  const unknownKeys = issue.params?.keys;
  if (issue.keyword === 'unrecognized_keys' && unknownKeys?.length) return unknownKeys.join(', ');
  return (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
}

/**
 * Validation failures name the field, except the spec's own messages and a rule over the whole body
 * (a schema's own refinement, such as an alert's "Choose what to look for…"), which read as they are.
 * The schemas' messages never name their field themselves: this adds it once.
 */
function describeValidation(error: FastifyError): ApiErrorBody {
  const issues = (error.validation ?? []) as ValidationIssue[];
  const context = error.validationContext ?? 'body';
  const errors = issues.map((issue) => {
    const message = issue.params?.issue?.message ?? issue.message ?? 'is invalid';
    return { field: fieldOf(issue), message };
  });
  const first = errors[0];
  let message = 'The request is not valid';
  if (first) {
    if (SPEC_MESSAGES.has(first.message) || SPEC_MESSAGE_FORMS.some((f) => f.test(first.message)))
      message = first.message;
    else if (first.field === '' && issues[0]?.keyword === 'custom') message = first.message;
    else if (first.field === '') message = `The request ${context} is not valid: ${first.message}`;
    else if (context === 'querystring' || context === 'params')
      message = `Invalid parameter '${first.field}': ${first.message}`;
    else message = `${first.field}: ${first.message}`;
  }
  return errorBody(400, message, { errors });
}

/** Network errors and PostgreSQL's "connection" / "operator intervention" classes (08, 57P). */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
]);

/** The database (or the way to it) is down: the request may succeed later, so 503, not 500. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined; e;) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (UNAVAILABLE_CODES.has(code) || code.startsWith('08') || code.startsWith('57P')) return true;
    const message = typeof e.message === 'string' ? e.message : '';
    if (/Connection terminated|timeout exceeded when trying to connect/i.test(message)) return true;
    if (e.cause === e) break;
    e = e.cause as typeof e;
  }
  return false;
}

/** Every failure answers {success:false, statusCode, message}; 5xx details go to the log only. */
export default fp(async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation) {
      return reply.status(400).send(describeValidation(error));
    }
    if (error instanceof AppError) {
      const body = errorBody(error.statusCode, error.message, {
        ...(error.errors ? { errors: error.errors } : {}),
        ...error.extra,
      });
      return reply.status(error.statusCode).send(body);
    }
    const status = isDatabaseUnavailable(error) ? 503 : (error.statusCode ?? 500);
    if (status >= 400 && status < 500) {
      const message =
        status === 413
          ? 'The request is too large'
          : status === 415
            ? 'Unsupported content type: send JSON (Content-Type: application/json)'
            : error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
                error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
              ? 'The request body is not valid JSON'
              : error.message;
      return reply.status(status).send(errorBody(status, message));
    }
    request.log.error({ err: error }, 'request failed');
    return status === 503
      ? reply
          .status(503)
          .send(errorBody(503, 'The service is temporarily unavailable, please try again shortly'))
      : reply
          .status(500)
          .send(errorBody(500, 'Something went wrong on our side, please try again'));
  });
});

/** 404 for an unknown route, in the API's error shape. */
export function sendRouteNotFound(request: FastifyRequest, reply: FastifyReply) {
  return reply
    .status(404)
    .send(errorBody(404, `Not found: ${request.method} ${request.url.split('?')[0]}`));
}

/**
 * Fastify's router refuses a malformed path escape, or a path parameter over its limit (which a
 * request through Node's HTTP server cannot reach: app.ts), before any hook runs, in its own shape;
 * the `frameworkErrors` option routes them here instead: a 400, the status every route declares.
 */
export function sendFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const status = 400;
  const message =
    error.statusCode === 414
      ? 'A path parameter is too long'
      : 'The request path is not a valid URL';
  request.log.info({ err: error }, 'refused by the router');
  setBareSecurityHeaders(reply);
  return reply.status(status).send(errorBody(status, message));
}
