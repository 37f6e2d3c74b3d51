import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorResponses } from '@campus-books/common/api';
import { AppError, notFound } from '../../lib/errors';
import { writeBackup } from '../../ops/backup';
import { summaryLine } from '../../ops/manifest';
import { isAdminToken, loadOrCreateAdminToken } from './admin-token';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * The socket's own peer, not request.ip: X-Forwarded-For must never make a remote caller look local.
 * A reverse proxy on the same machine does connect from loopback, hence the token as well.
 */
const isLoopback = (request: FastifyRequest) =>
  LOOPBACK.has(request.raw.socket.remoteAddress ?? '');

/**
 * POST /api/admin/backup: streams a backup archive of the live installation (docs/operations.md).
 * It exists for `npm run backup` against a server on the embedded database, which no second process
 * may open. Only from this machine, only with the token in DATA_DIR/admin-token; one at a time.
 */
export default async function adminRoutes(app: FastifyInstance) {
  const token = loadOrCreateAdminToken(app.config.dataDir);
  let running = false;

  app.addHook('onRequest', async (request) => {
    if (!isLoopback(request)) throw notFound('Not found');
    const header = request.headers.authorization;
    const presented = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    if (!isAdminToken(token, presented)) {
      throw new AppError(401, 'Admin routes need the token from DATA_DIR/admin-token');
    }
  });

  const backupSchema = {
    // Left out of the public reference: an operator's route, documented in docs/operations.md.
    hide: true,
    response: {
      200: {
        description: 'The backup archive, streamed',
        content: { 'application/x-tar': { schema: z.string().meta({ format: 'binary' }) } },
      },
      ...errorResponses({
        401: 'No admin token',
        404: 'Not from this machine',
        409: 'A backup is already running',
      }),
    },
  };
  app.post('/backup', { schema: backupSchema }, async (request, reply) => {
    if (running) throw new AppError(409, 'A backup is already running');
    running = true;
    const started = Date.now();
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'application/x-tar',
      'cache-control': 'no-store',
    });
    try {
      const manifest = await writeBackup({
        database: app.database,
        storage: app.storage,
        output: reply.raw,
      });
      request.log.info(
        { counts: manifest.counts, rounds: manifest.snapshotRounds },
        summaryLine('backup streamed', manifest, (Date.now() - started) / 1000),
      );
    } catch (error) {
      // The client sees a truncated archive without a manifest, and reports the failure.
      request.log.error({ err: error }, 'backup failed');
      reply.raw.destroy();
    } finally {
      running = false;
    }
  });
}
