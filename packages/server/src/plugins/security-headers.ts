import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { z } from 'zod';

export const CSP_REPORT_PATH = '/api/csp-report';
const REPORT_BODY_LIMIT = 16 * 1024;
/** Reports logged per minute at most: a page in a loop must not flood the log. */
const REPORTS_LOGGED_PER_MINUTE = 30;

/** Answers about the account (sign-in, session, profile, own listings) are never stored by a cache. */
const NO_STORE_PATH = /^\/api\/(auth|user)(\/|$)/i;
const HSTS_MAX_AGE = 31_536_000;
const HSTS = `max-age=${HSTS_MAX_AGE}; includeSubDomains`;

/**
 * The policy the built web app runs under: its own scripts, styles, fonts and API only; images also
 * from data: and blob: (the image picker previews and downsizes photos in the page); no plugins, no
 * framing by any site, forms and <base> only to this origin.
 */
export function contentSecurityPolicy(secure: boolean): Record<string, string[]> {
  return {
    'default-src': ["'self'"],
    // WebAssembly compiled from our own file: the ISBN scanner's barcode decoder (zxing-wasm).
    'script-src': ["'self'", "'wasm-unsafe-eval'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    'media-src': ["'self'"],
    'manifest-src': ["'self'"],
    'worker-src': ["'self'"],
    'frame-src': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    // report-uri only: with report-to as well, Chrome would batch reports through the Reporting API.
    'report-uri': [CSP_REPORT_PATH],
    // Behind https, a stray http:// URL is fetched over https; on plain http it would break the page.
    ...(secure ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/**
 * Whether the request's campus is served over https (PUBLIC_URL, or with several campuses the
 * campus's own address, decision 024): HSTS and the https upgrade then.
 */
const servedOverHttps = (app: FastifyInstance): boolean =>
  app.config.publicUrl.startsWith('https://');

/**
 * The headers of an answer no hook sees: Fastify's router refuses a malformed path before any hook
 * runs (plugins/errors.ts, sendFrameworkError). A JSON error needs no sources at all.
 */
export function setBareSecurityHeaders(reply: FastifyReply): void {
  const secure = servedOverHttps(reply.server);
  reply
    .header('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'")
    .header('X-Content-Type-Options', 'nosniff')
    .header('X-Frame-Options', 'DENY')
    .header('Referrer-Policy', 'strict-origin-when-cross-origin')
    .header('Cross-Origin-Opener-Policy', 'same-origin')
    .header('Cross-Origin-Resource-Policy', 'same-origin');
  if (secure) reply.header('Strict-Transport-Security', HSTS);
  if (NO_STORE_PATH.test(reply.request.url.split('?')[0] ?? '')) {
    reply.header('Cache-Control', 'no-store');
  }
}

/** The fields of a violation report worth a log line (report-uri and Reporting API shapes). */
function summarise(report: unknown): Record<string, unknown> {
  if (!report || typeof report !== 'object') return {};
  const r = report as Record<string, unknown>;
  const body = (r['csp-report'] ?? r.body ?? r) as Record<string, unknown>;
  const pick = (...keys: string[]) => {
    for (const key of keys) {
      const value = body[key];
      if (typeof value === 'string') return value.slice(0, 300);
    }
    return undefined;
  };
  return {
    document:
      pick('document-uri', 'documentURL') ?? (typeof r.url === 'string' ? r.url : undefined),
    directive: pick('effective-directive', 'effectiveDirective', 'violated-directive'),
    blocked: pick('blocked-uri', 'blockedURL'),
    source: pick('source-file', 'sourceFile'),
    line: body['line-number'] ?? body.lineNumber,
    sample: pick('script-sample', 'sample'),
  };
}

/**
 * Security headers on every answer (pages, JSON, images, errors): a strict Content-Security-Policy,
 * no framing, nosniff, a referrer policy, COOP, and HSTS when PUBLIC_URL is https. Account answers
 * get `Cache-Control: no-store`. Browsers report policy violations to POST /api/csp-report (logged).
 */
export default fp(
  async function securityHeadersPlugin(app: FastifyInstance) {
    // Built once for each way a campus is served: @fastify/helmet built the whole middleware again
    // (CSP directives parsed and joined) on every request, a share of each answer's CPU.
    const helmetFor = (secure: boolean) =>
      helmet({
        contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(secure) },
        crossOriginOpenerPolicy: { policy: 'same-origin' },
        crossOriginResourcePolicy: { policy: 'same-origin' },
        crossOriginEmbedderPolicy: false,
        referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
        xFrameOptions: { action: 'deny' },
        strictTransportSecurity: secure ? { maxAge: HSTS_MAX_AGE, includeSubDomains: true } : false,
      });
    const setSecureHeaders = helmetFor(true);
    const setPlainHeaders = helmetFor(false);
    app.addHook('onRequest', (request, reply, done) => {
      // Helmet throws rather than passing an error on (8.1+); its callback only ever continues.
      (servedOverHttps(app) ? setSecureHeaders : setPlainHeaders)(request.raw, reply.raw, () =>
        done(),
      );
    });

    // A callback, not an async function: it runs on every request (docs/performance.md, "Hooks").
    app.addHook('onSend', (request, reply, payload, done) => {
      if (NO_STORE_PATH.test(request.url.split('?')[0] ?? '')) {
        reply.header('Cache-Control', 'no-store');
      }
      done(null, payload);
    });

    let logged = 0;
    let minute = 0;
    const logReport = (request: FastifyRequest, report: unknown) => {
      const now = Math.floor(Date.now() / 60_000);
      if (now !== minute) [minute, logged] = [now, 0];
      if (logged >= REPORTS_LOGGED_PER_MINUTE) return;
      logged += 1;
      request.log.warn({ csp: summarise(report) }, 'content security policy violation');
    };

    await app.register(async (scope) => {
      // A report is JSON under its own media type; a malformed one is dropped, not an error.
      scope.addContentTypeParser(
        ['application/csp-report', 'application/reports+json'],
        { parseAs: 'string', bodyLimit: REPORT_BODY_LIMIT },
        (_request, body, done) => {
          try {
            done(null, JSON.parse(body as string));
          } catch {
            done(null, undefined);
          }
        },
      );
      const reportSchema = {
        response: { 204: z.undefined().describe('Logged (or dropped when malformed)') },
      };
      scope.post(
        CSP_REPORT_PATH,
        { bodyLimit: REPORT_BODY_LIMIT, schema: reportSchema },
        async (request, reply) => {
          const reports = Array.isArray(request.body) ? request.body : [request.body];
          for (const report of reports.slice(0, 10)) if (report) logReport(request, report);
          return reply.status(204).send();
        },
      );
    });
  },
  { name: 'security-headers' },
);
