import { webPaths } from '@campus-books/common/paths';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { escapeHtml } from '../lib/html';
import { sendRouteNotFound } from './errors';
import webAssetsPlugin from './web-assets';

export const WEB_DIST_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../web/dist',
);

/** Paths the single-page app never answers: API calls, and anything that looks like a file. */
function isAppRoute(url: string): boolean {
  const pathname = url.split('?')[0] ?? '/';
  return !pathname.startsWith('/api/') && pathname !== '/api' && !/\.[a-z0-9]+$/i.test(pathname);
}

/** The app shell with a page's own <title> and meta tags. */
export function withPageHead(indexHtml: string, head: PageHead): string {
  const title = `<title>${escapeHtml(head.title)}</title>`;
  const withTitle = /<title>[\s\S]*?<\/title>/i.test(indexHtml)
    ? indexHtml.replace(/<title>[\s\S]*?<\/title>/i, () => title)
    : indexHtml.replace(/<\/head>/i, () => `  ${title}\n  </head>`);
  return withTitle.replace(/<\/head>/i, () => `  ${head.tags}\n  </head>`);
}

/** What a page adds to the shell's head (Open Graph tags of a shared link). */
export interface PageHead {
  /** Plain text; the shell escapes it. */
  title: string;
  /** Ready-to-insert, escaped `<meta>` and `<link>` tags. */
  tags: string;
}

export interface WebPluginOptions {
  /** Folder of the built web app (tests point it at a small one). */
  distDir?: string;
  /** The head of /listing/:id (features/listings), or undefined for the plain shell. */
  listingPageHead?: (app: FastifyInstance, id: string) => Promise<PageHead | undefined>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Renders the app shell for a route; features may register head tags (Open Graph) by path. */
    renderAppShell: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
  }
}

/** Serves the built web app: hashed assets cached forever, every app route gets index.html. */
export default fp(
  async function webPlugin(app: FastifyInstance, options: WebPluginOptions) {
    const distDir = options.distDir ?? WEB_DIST_DIR;
    const indexFile = path.join(distDir, 'index.html');
    if (!existsSync(indexFile)) {
      app.log.warn(`The web app is not built (${indexFile} is missing): run npm run build`);
      return;
    }
    const indexHtml = readFileSync(indexFile, 'utf8');

    await app.register(webAssetsPlugin, { distDir });

    const sendShell = (reply: FastifyReply, html: string) =>
      reply
        .header('Cache-Control', 'no-cache')
        .header('X-Content-Type-Options', 'nosniff')
        .type('text/html; charset=utf-8')
        .send(html);
    app.decorate('renderAppShell', async (_request: FastifyRequest, reply: FastifyReply) =>
      sendShell(reply, indexHtml),
    );

    // A shared listing link previews the book; an unknown id (or a database hiccup) gets the plain shell.
    app.get<{ Params: { listingId: string } }>(webPaths.listing.pattern, async (request, reply) => {
      const findHead = options.listingPageHead ?? (async () => undefined);
      const head = await findHead(app, request.params.listingId).catch((error: unknown) => {
        request.log.warn({ err: error }, 'listing page head failed');
        return undefined;
      });
      return sendShell(reply, head ? withPageHead(indexHtml, head) : indexHtml);
    });

    app.setNotFoundHandler((request, reply) => {
      if ((request.method === 'GET' || request.method === 'HEAD') && isAppRoute(request.url)) {
        return app.renderAppShell(request, reply);
      }
      return sendRouteNotFound(request, reply);
    });
  },
  { name: 'web' },
);
