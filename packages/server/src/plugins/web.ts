import type { CurrentUser } from '@campus-books/common/account.schemas';
import type { CampusConfig } from '@campus-books/common/campus-config';
import { webPaths } from '@campus-books/common/paths';
import {
  APP_SHELL_MODULES,
  PAGE_MODULES_ELEMENT_ID,
  SSR_STATE_ELEMENT_ID,
  type ServerRenderer,
} from '@campus-books/common/server-rendering';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sendRouteNotFound } from './errors';
import { compressPage, PageCache, pageBasis, readsTheSame, type CachedPage } from './page-cache';
import { SESSION_COOKIE } from './sessions';
import {
  moduleAddresses,
  modulePreloadLinks,
  PREAMBLE_SCAN_BYTES,
  readManifest,
  splitPreamble,
  splitShell,
  withHoisted,
  withPageHead,
} from './web-shell';
import webAssetsPlugin from './web-assets';
import {
  campusManifest,
  campusShell,
  campusStylesheet,
  campusVersion,
  MANIFEST_PATH,
  registerCampusStylesheet,
  withCampusElement,
} from './web-campus';
import { iconsByCampus, registerCampusIcons, registerIconsPerCampus } from './web-icons';
import { sendKeptPage } from './web-kept-page';
import type { LoadedPage, PageLoader, RenderedPage, WebPluginOptions } from './web-options';

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

/** Longer addresses are rendered for their visitor and not kept. */
const MAX_KEPT_URL_LENGTH = 512;

async function loadRenderer(entry: string): Promise<ServerRenderer | null> {
  if (!existsSync(entry)) return null;
  const module = (await import(pathToFileURL(entry).href)) as { renderer: ServerRenderer };
  return module.renderer;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Renders the app shell for a route; features may register head tags (Open Graph) by path. */
    renderAppShell: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
    /** Once the signed-out pages rendering again in the background are done (a stop; tests). */
    pagesSettled: () => Promise<void>;
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
    // Outside any request: the process's campus (a single-campus installation's only one).
    const campus = app.config.campus;
    // Every page carries the campus it is served as, which the web app reads before it renders,
    // and names it: its title, description, theme colour, palette (web-campus.ts) and icons.
    const isPerCampus = app.hasPlugin('campus-routing');
    const { icons, iconsOf } = await iconsByCampus(app, distDir, isPerCampus);
    // The campus of the work at hand: a many-campus installation's request's (decision 024).
    const shellOf = (built: string) => {
      const current = app.config.campus;
      return withCampusElement(campusShell(built, current, iconsOf(current)), current);
    };
    const builtIndex = readFileSync(indexFile, 'utf8');
    const indexHtml = shellOf(builtIndex);
    /**
     * The shell and stylesheet naming the campus of the work at hand, made on that campus's first
     * request and kept (one per campus of the directory; the process's made at start).
     */
    const madeFor = new WeakMap<
      CampusConfig,
      { indexHtml: string; css: string; version: string }
    >();
    madeFor.set(campus, {
      indexHtml,
      css: campusStylesheet(campus),
      version: campusVersion(campus),
    });
    const campusWeb = () => {
      const current = app.config.campus;
      let made = madeFor.get(current);
      if (!made) {
        made = {
          indexHtml: shellOf(builtIndex),
          css: campusStylesheet(current),
          version: campusVersion(current),
        };
        madeFor.set(current, made);
      }
      return made;
    };

    // The built manifest and shell are answered as the campus makes them (the worker precaches
    // /index.html, the browser installs from the manifest).
    await app.register(webAssetsPlugin, {
      distDir,
      rewrites: {
        '/index.html': shellOf,
        [MANIFEST_PATH]: (built) =>
          campusManifest(built, app.config.campus, iconsOf(app.config.campus)),
      },
      rewrittenFor: () => app.config.campus,
    });
    registerCampusStylesheet(app, () => {
      const { css, version } = campusWeb();
      return { css, version };
    });
    if (isPerCampus) registerIconsPerCampus(app, () => iconsOf(app.config.campus));
    else registerCampusIcons(app, icons, app.config.campusLogo);

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
      sendShell(reply, campusWeb().indexHtml),
    );

    const ssr = options.serverRendering;
    // Beside the built web app's folder; a test's own folder renders nothing unless it names an entry.
    const entry = ssr?.entry ?? (options.distDir ? undefined : DEFAULT_SSR_ENTRY);
    const renderer = entry ? await loadRenderer(entry) : null;
    // The renderer has its own copy of common's modules: it reads the campus this server serves
    // when it reads an address (a school or a subject of a search page), not only while rendering.
    renderer?.setCampus?.(() => app.config.campus);
    if (ssr && options.distDir === undefined && !renderer) {
      app.log.warn(
        'The web app has no server build (run npm run build): pages render in the browser',
      );
    }

    // A shared listing link previews the book; an unknown id (or a database hiccup) gets the plain shell.
    async function shellFor(request: FastifyRequest, listingId: string | undefined) {
      const indexHtml = campusWeb().indexHtml;
      if (listingId === undefined) return indexHtml;
      const findHead = options.listingPageHead ?? (async () => undefined);
      const head = await findHead(app, listingId).catch((error: unknown) => {
        request.log.warn({ err: error }, 'listing page head failed');
        return undefined;
      });
      return head ? withPageHead(indexHtml, head) : indexHtml;
    }

    /** What a page is rendered from beside its address; null when loading it fails. */
    async function loadPage(
      request: FastifyRequest,
      page: RenderedPage,
      user: CurrentUser | null,
    ): Promise<LoadedPage | null> {
      try {
        // The loader of the page's kind (each is typed for its own kind).
        const load = ssr!.loaders[page.kind] as PageLoader;
        const data = await load(app, page, request);
        const saved = user?.emailVerified ? await ssr!.savedListings(app, user._id) : null;
        return { data, saved, publicConfig: ssr!.publicConfig(app) };
      } catch (error) {
        request.log.error({ err: error }, 'server rendering failed: answering the app shell');
        return null;
      }
    }

    /** The page's HTML, streamed out of React from what was loaded, or null when it fails. */
    async function renderDocument(
      request: FastifyRequest,
      page: RenderedPage,
      parts: { before: string; after: string },
      user: CurrentUser | null,
      loaded: LoadedPage,
      renderedAt: number,
    ): Promise<{ status: number; document: AsyncIterable<string | Uint8Array> } | null> {
      let rendered;
      try {
        rendered = await renderer!.renderPage({
          url: request.url,
          page,
          ...loaded,
          user,
          campus: app.config.campus,
          renderedAt,
          onRecoverableError: (error) =>
            request.log.warn({ err: error }, 'server rendering: a part is left to the browser'),
        });
      } catch (error) {
        request.log.error({ err: error }, 'server rendering failed: answering the app shell');
        return null;
      }
      const { html, stateJson } = rendered;
      const pageModules = moduleAddresses(manifest, rendered.modules, parts.before + parts.after);
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
        yield withHoisted(parts.before, head);
        yield body;
        for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
          yield next.value;
        }
        yield `</div><script type="application/json" id="${SSR_STATE_ELEMENT_ID}">${stateJson}</script>`;
        // JSON of hashed asset paths: nothing in it can end the element.
        yield `<script type="application/json" id="${PAGE_MODULES_ELEMENT_ID}">${JSON.stringify(pageModules)}</script>`;
        yield parts.after.slice('</div>'.length);
      }
      return { status: rendered.status, document: document() };
    }

    const pages = ssr?.pageCache && ssr.pageCache.maxBytes > 0 ? ssr.pageCache : null;
    // Addresses the web app itself writes, and the rest (a tracking parameter, an attacker's
    // variations): the rest can never push the first out. Each shares a render of one address in
    // flight with the visitors who ask meanwhile.
    const canonicalPages = pages && new PageCache(pages);
    const otherPages =
      pages && new PageCache({ ...pages, maxBytes: Math.floor(pages.maxBytes / 16) });
    const pagesNow = pages?.now ?? Date.now;
    app.decorate('pagesSettled', async () => {
      await Promise.all([canonicalPages?.settled(), otherPages?.settled()]);
    });
    // A page rendering again in the background reads the database: the stop waits for it.
    app.addHook('onClose', () => app.pagesSettled());

    /** Whether a page's address is one the web app writes (a search's filters in their order…). */
    function isCanonical(pathname: string, search: string, page: RenderedPage): boolean {
      if (page.kind !== 'search') return search === '';
      return renderer?.isCanonicalAddress?.(pathname, search) ?? false;
    }

    /**
     * The page a signed-out visitor is shown, rendered once per catalogue change; past its time,
     * rendered again only if it would read otherwise (page-cache.ts, `readsTheSame`).
     */
    async function signedOutPage(
      request: FastifyRequest,
      page: RenderedPage,
      shellOf: () => Promise<string>,
      cache: PageCache,
    ): Promise<CachedPage | null> {
      const freshness = pages!;
      // On PostgreSQL, one read of the catalogue's version: a change any server acknowledged moves
      // the generation, and the cache then empties before it answers.
      await freshness.ensureFresh(freshness.generation());
      return cache.page(request.url, freshness.generation(), async (kept) => {
        // The shell (a listing's Open Graph head is a read) only for a render, never for a hit.
        const shell = await shellOf();
        const parts = splitShell(shell);
        if (!parts) return null;
        const loaded = await loadPage(request, page, null);
        if (!loaded) return null;
        const renderedAt = pagesNow();
        const dataJson = JSON.stringify(loaded.data) ?? '';
        const inputs = [shell, JSON.stringify(loaded.publicConfig)];
        const basis = pageBasis(inputs, dataJson, renderedAt);
        if (kept && readsTheSame(kept, basis, renderedAt)) return kept;
        const done = await renderDocument(request, page, parts, null, loaded, renderedAt);
        if (!done) return null;
        let html = '';
        const decoder = new TextDecoder();
        for await (const chunk of done.document) {
          html += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
        }
        html += decoder.decode();
        return compressPage(html, done.status, basis);
      });
    }

    /**
     * A landing page (/, /search, /listing/{id}, /course/{code}, /about, /privacy) answers HTML that already shows its
     * data, streamed out of React, with the answers it was rendered with for the browser to hydrate
     * from; any other app route (or a render that fails) answers the app shell. A signed-out
     * visitor's page comes from memory (rendered once per catalogue change, docs/performance.md).
     */
    async function sendPage(request: FastifyRequest, reply: FastifyReply) {
      const queryAt = request.url.indexOf('?');
      const pathname = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
      const search = queryAt < 0 ? '' : request.url.slice(queryAt);
      const page = renderer?.matchLandingPage(pathname, search) ?? null;
      const routeListingId = (request.params as { listingId?: string } | undefined)?.listingId;
      const shellOf = () =>
        shellFor(request, page?.kind === 'listing' ? page.listingId : routeListingId);
      if (!page || !renderer || request.method !== 'GET') return sendShell(reply, await shellOf());
      // The address the page would replace at once (a search given its default filter).
      if (page.kind === 'redirect') return reply.redirect(page.location, 302);

      // Without a session cookie there is no one to read; with one, its user (or no one: expired).
      let user: CurrentUser | null = null;
      try {
        if (request.cookies?.[SESSION_COOKIE] !== undefined)
          user = await ssr!.currentUser(app, request);
      } catch (error) {
        request.log.error({ err: error }, 'server rendering failed: answering the app shell');
        return sendShell(reply, await shellOf());
      }
      if (!user && canonicalPages && otherPages && request.url.length <= MAX_KEPT_URL_LENGTH) {
        const cache = isCanonical(pathname, search, page) ? canonicalPages : otherPages;
        const kept = await signedOutPage(request, page, shellOf, cache).catch((error: unknown) => {
          request.log.error({ err: error }, 'server rendering failed: answering the app shell');
          return null;
        });
        return kept ? sendKeptPage(request, reply, kept) : sendShell(reply, await shellOf());
      }

      const shell = await shellOf();
      const parts = splitShell(shell);
      if (!parts) return sendShell(reply, shell);
      const loaded = await loadPage(request, page, user);
      const done = loaded && (await renderDocument(request, page, parts, user, loaded, Date.now()));
      if (!done) return sendShell(reply, shell);
      return (
        reply
          .status(done.status)
          // The page shows who is signed in: never kept by a shared cache.
          .header('Cache-Control', 'private, no-cache')
          .header('X-Content-Type-Options', 'nosniff')
          .type('text/html; charset=utf-8')
          .send(Readable.from(done.document))
      );
    }

    // The landing pages are routes of their own (the not-found handler below would answer them too,
    // but without the compression every route gets).
    for (const pattern of [
      webPaths.home.pattern,
      webPaths.search.pattern,
      webPaths.listing.pattern,
      webPaths.course.pattern,
      webPaths.about.pattern,
      webPaths.privacy.pattern,
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
