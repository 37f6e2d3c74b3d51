import type { CurrentUser } from '@campus-books/common/account.schemas';
import type { PublicConfig } from '@campus-books/common/api';
import type { Listing } from '@campus-books/common/listing.schemas';
import { webPaths } from '@campus-books/common/paths';
import {
  APP_SHELL_MODULES,
  PAGE_MODULES_ELEMENT_ID,
  SSR_STATE_ELEMENT_ID,
  type LandingPage,
  type LandingPageData,
  type ServerRenderer,
} from '@campus-books/common/server-rendering';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { escapeHtml } from '../lib/html';
import { sendRouteNotFound } from './errors';
import webAssetsPlugin from './web-assets';

export const WEB_DIST_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../web/dist',
);
/** The web app's server build (packages/web/src/entry-server.tsx), beside its dist folder. */
const DEFAULT_SSR_ENTRY = path.resolve(WEB_DIST_DIR, '../dist-ssr/entry-server.js');

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

/** Loads a landing page's data with the API's own service functions (features; app.ts wires them). */
type RenderedPage = Exclude<LandingPage, { kind: 'redirect' }>;

export type LandingPageLoaders = {
  [Kind in RenderedPage['kind']]: (
    app: FastifyInstance,
    page: Extract<LandingPage, { kind: Kind }>,
    request: FastifyRequest,
  ) => Promise<LandingPageData | null>;
};

export interface ServerRenderingOptions {
  /** The web app's server build (a test may name a stand-in). */
  entry?: string;
  loaders: LandingPageLoaders;
  /** The signed-in user as GET /api/auth/session answers it, or null. */
  currentUser: (app: FastifyInstance, request: FastifyRequest) => Promise<CurrentUser | null>;
  /** A verified user's saved listings as GET /api/saved/get answers them. */
  savedListings: (app: FastifyInstance, userId: string) => Promise<Listing[]>;
  /** GET /api/config's answer. */
  publicConfig: (app: FastifyInstance) => PublicConfig;
}

export interface WebPluginOptions {
  /** Folder of the built web app (tests point it at a small one). */
  distDir?: string;
  /** The head of /listing/:id (features/listings), or undefined for the plain shell. */
  listingPageHead?: (app: FastifyInstance, id: string) => Promise<PageHead | undefined>;
  /** Render the landing pages' first screen on the server (docs/decisions/012); else the shell. */
  serverRendering?: ServerRenderingOptions;
}

/** The shell around the app's HTML: everything before the root element's content, and after. */
function splitShell(html: string): { before: string; after: string } | null {
  const marker = '<div id="root"></div>';
  const at = html.indexOf(marker);
  if (at < 0) return null;
  const open = at + marker.length - '</div>'.length;
  return { before: html.slice(0, open), after: html.slice(open) };
}

/** How much of React's output is read before the page's <head> is sent: its preamble is far smaller. */
const PREAMBLE_SCAN_BYTES = 16_384;
const PREAMBLE = /^(?:<title>[^<]*<\/title>|<(?:link|meta)\b[^>]*>)+/;

/** React's hoisted elements at the start of its output, and the rest. */
export function splitPreamble(html: string): { head: string; body: string } {
  const head = PREAMBLE.exec(html)?.[0] ?? '';
  return { head, body: html.slice(head.length) };
}

/** The shell's head with the page's own <title> (in place of the shell's) and hoisted tags. */
function withHoisted(before: string, hoisted: string): string {
  if (!hoisted) return before;
  const title = /<title>[^<]*<\/title>/.exec(hoisted)?.[0];
  let tags = title ? hoisted.replace(title, '') : hoisted;
  // A listing's head preloads its photo already (listing-page-meta): once is enough.
  if (before.includes('<link rel="preload" as="image"')) {
    tags = tags.replace(/<link rel="preload" as="image"[^>]*>/g, '');
  }
  const withTitle = title ? before.replace(/<title>[\s\S]*?<\/title>/i, () => title) : before;
  return withTitle.replace(/<\/head>/i, () => `${tags}</head>`);
}

interface ManifestChunk {
  file: string;
  imports?: string[];
}

/**
 * The addresses of modules' chunks and the chunks they import, from the client build's manifest
 * (dist/.vite/manifest.json), leaving out what the shell already loads.
 */
export function moduleAddresses(
  manifest: Record<string, ManifestChunk>,
  modules: string[],
  shell: string,
): string[] {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  modules.forEach(visit);
  return [...files].filter((file) => !shell.includes(`/${file}"`)).map((file) => `/${file}`);
}

/** `<link rel="modulepreload">` tags for those addresses. */
function modulePreloadLinks(addresses: string[]): string {
  return addresses
    .map((href) => `<link rel="modulepreload" crossorigin href="${escapeHtml(href)}">`)
    .join('');
}

function readManifest(distDir: string): Record<string, ManifestChunk> {
  const file = path.join(distDir, '.vite', 'manifest.json');
  return existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestChunk>)
    : {};
}

async function loadRenderer(entry: string): Promise<ServerRenderer | null> {
  if (!existsSync(entry)) return null;
  const module = (await import(pathToFileURL(entry).href)) as { renderer: ServerRenderer };
  return module.renderer;
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

    const manifest = readManifest(distDir);
    // The app shell renders in the browser: the app's code past the small entry script is wanted at
    // once, so its head preloads it. (A server-rendered page fetches it after its first paint.)
    const appPreloads = modulePreloadLinks(moduleAddresses(manifest, APP_SHELL_MODULES, indexHtml));
    const sendShell = (reply: FastifyReply, html: string) =>
      reply
        .header('Cache-Control', 'no-cache')
        .header('X-Content-Type-Options', 'nosniff')
        .type('text/html; charset=utf-8')
        .send(appPreloads ? html.replace(/<\/head>/i, () => `${appPreloads}</head>`) : html);
    app.decorate('renderAppShell', async (_request: FastifyRequest, reply: FastifyReply) =>
      sendShell(reply, indexHtml),
    );

    const ssr = options.serverRendering;
    // Beside the built web app's folder; a test's own folder renders nothing unless it names an entry.
    const entry = ssr?.entry ?? (options.distDir ? undefined : DEFAULT_SSR_ENTRY);
    const renderer = entry ? await loadRenderer(entry) : null;
    if (ssr && options.distDir === undefined && !renderer) {
      app.log.warn(
        'The web app has no server build (run npm run build): pages render in the browser',
      );
    }

    // A shared listing link previews the book; an unknown id (or a database hiccup) gets the plain shell.
    async function shellFor(request: FastifyRequest, listingId: string | undefined) {
      if (listingId === undefined) return indexHtml;
      const findHead = options.listingPageHead ?? (async () => undefined);
      const head = await findHead(app, listingId).catch((error: unknown) => {
        request.log.warn({ err: error }, 'listing page head failed');
        return undefined;
      });
      return head ? withPageHead(indexHtml, head) : indexHtml;
    }

    async function loadPageData(request: FastifyRequest, page: RenderedPage) {
      const loaders = ssr!.loaders;
      switch (page.kind) {
        case 'home':
          return loaders.home(app, page, request);
        case 'search':
          return loaders.search(app, page, request);
        case 'listing':
          return loaders.listing(app, page, request);
        case 'course':
          return loaders.course(app, page, request);
      }
    }

    /**
     * A landing page (/, /search, /listing/{id}, /course/{code}) answers HTML that already shows its
     * data, streamed out of React, with the answers it was rendered with for the browser to hydrate
     * from; any other app route (or a render that fails) answers the app shell.
     */
    async function sendPage(request: FastifyRequest, reply: FastifyReply) {
      const queryAt = request.url.indexOf('?');
      const pathname = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
      const search = queryAt < 0 ? '' : request.url.slice(queryAt);
      const page = renderer?.matchLandingPage(pathname, search) ?? null;
      const routeListingId = (request.params as { listingId?: string } | undefined)?.listingId;
      const shell = await shellFor(
        request,
        page?.kind === 'listing' ? page.listingId : routeListingId,
      );
      const parts = splitShell(shell);
      if (!page || !renderer || !parts || request.method !== 'GET') return sendShell(reply, shell);
      // The address the page would replace at once (a search given its default filter).
      if (page.kind === 'redirect') return reply.redirect(page.location, 302);

      let rendered;
      try {
        const [data, user] = await Promise.all([
          loadPageData(request, page),
          ssr!.currentUser(app, request),
        ]);
        const saved = user?.emailVerified ? await ssr!.savedListings(app, user._id) : null;
        rendered = await renderer.renderPage({
          url: request.url,
          page,
          data,
          user,
          saved,
          publicConfig: ssr!.publicConfig(app),
          renderedAt: Date.now(),
          onRecoverableError: (error) =>
            request.log.warn({ err: error }, 'server rendering: a part is left to the browser'),
        });
      } catch (error) {
        request.log.error({ err: error }, 'server rendering failed: answering the app shell');
        return sendShell(reply, shell);
      }
      const { html, stateJson } = rendered;
      const pageModules = moduleAddresses(manifest, rendered.modules, shell);
      async function* document() {
        // React writes the page's <title> and preloads first; they belong in the <head>.
        let start = '';
        const chunks = html[Symbol.asyncIterator]();
        const decoder = new TextDecoder();
        while (start.length < PREAMBLE_SCAN_BYTES) {
          const next = await chunks.next();
          if (next.done) break;
          start += typeof next.value === 'string' ? next.value : decoder.decode(next.value);
        }
        const { head, body } = splitPreamble(start);
        yield withHoisted(parts!.before, head);
        yield body;
        for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
          yield next.value;
        }
        yield `</div><script type="application/json" id="${SSR_STATE_ELEMENT_ID}">${stateJson}</script>`;
        // JSON of hashed asset paths: nothing in it can end the element.
        yield `<script type="application/json" id="${PAGE_MODULES_ELEMENT_ID}">${JSON.stringify(pageModules)}</script>`;
        yield parts!.after.slice('</div>'.length);
      }
      return (
        reply
          .status(rendered.status)
          // The page shows who is signed in: never kept by a shared cache.
          .header('Cache-Control', 'private, no-cache')
          .header('X-Content-Type-Options', 'nosniff')
          .type('text/html; charset=utf-8')
          .send(Readable.from(document()))
      );
    }

    // The landing pages are routes of their own (the not-found handler below would answer them too,
    // but without the compression every route gets).
    for (const pattern of [
      webPaths.home.pattern,
      webPaths.search.pattern,
      webPaths.listing.pattern,
      webPaths.course.pattern,
    ]) {
      app.get(pattern, sendPage);
    }

    app.setNotFoundHandler((request, reply) => {
      if ((request.method === 'GET' || request.method === 'HEAD') && isAppRoute(request.url)) {
        return sendPage(request, reply);
      }
      return sendRouteNotFound(request, reply);
    });
  },
  { name: 'web' },
);
