// A relative path: the config loader bundles it (the package's TypeScript export Node cannot load).
// With its extension, as Node's own loader (Vite's coming `configLoader: 'native'`) needs it.
import { APP_START_MODULE, LANDING_PAGE_MODULES } from '../common/src/server-rendering.ts';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * The manifest's campus fields are placeholders: the server answers /manifest.webmanifest with the
 * campus it serves put in (server/src/plugins/web-campus.ts), as it does index.html's title.
 */
const PLACEHOLDER_NAME = 'Campus Books';
const THEME_COLOR = '#1c46a3';
const BACKGROUND_COLOR = '#f8fafc';

/**
 * Chunks the bundler would otherwise split into a dozen small ones, each compressed on its own
 * (together ~6 KB smaller gzipped, and a few requests instead of fifteen):
 * - `react`: React and React DOM (a group of their own in the config below);
 * - `app`: app/start.tsx and what it needs at once (the router, the query cache, the layout,
 *   the API client…), less React and the few modules the entry script already has;
 * - `landing`: the home page's code and what it shares with the other server-rendered pages (the
 *   listing card, its badges and save button). The home page's first load (the budgeted one,
 *   docs/performance.md) is then these two and the entry script; the other landing pages load ~2 KB
 *   of the home's own code with it.
 * Every other page's code stays in chunks of its own, loaded by the pages that need it.
 */
/**
 * React Query's index re-exports all of it, so the shell's closure holds hooks only some pages
 * call (infinite and parallel queries, hydration): left to those pages' chunks, out of every
 * page's first load.
 */
const PAGES_ONLY =
  /\/@tanstack\/(react-query|query-core)\/.*\/(use(MutationState|InfiniteQuery|SuspenseInfiniteQuery|Queries|SuspenseQueries|IsFetching|PrefetchInfiniteQuery)|infiniteQueryObserver|queriesObserver|HydrationBoundary)\.js$/;

/**
 * The router's module builds every component and context at its top level with calls the bundler
 * cannot know are pure (`var Form = React.forwardRef(…)`) and names each for the developer tools
 * (`Form.displayName = "Form"`), so all of them stay in the first load whether the app uses them or
 * not: `Form`, the fetcher and submit hooks, the prefetch links (~1.4 KB gzip of the home page's
 * 110 KB budget, docs/performance.md). Marked pure and unnamed (names only the developer tools read),
 * what the app does not import is dropped. The production build only.
 */
function routerTreeShaken(): Plugin {
  return {
    name: 'campus-books:router-tree-shaken',
    apply: 'build',
    transform: {
      filter: { id: /\/node_modules\/react-router\/dist\/.*\.mjs$/ },
      handler(code) {
        const pure = code
          .replace(/^[ \t]*[\w$]+\.displayName = "[^"\n]*";$/gm, '')
          .replace(
            /^var ([\w$]+) = (React\d*\.(?:forwardRef|createContext|memo)\()/gm,
            'var $1 = /* @__PURE__ */ $2',
          );
        return { code: pure, map: null };
      },
    },
  };
}

function sharedChunks(): {
  plugin: Plugin;
  app: (id: string) => boolean;
  landing: (id: string) => boolean;
} {
  let app = new Set<string>();
  let landing = new Set<string>();
  return {
    plugin: {
      name: 'campus-books:shared-chunks',
      apply: 'build',
      buildEnd() {
        const ids = [...this.getModuleIds()];
        const find = (source: string) => ids.find((id) => id.endsWith(`/${source}`));
        const staticClosure = (root: string | undefined) => {
          const seen = new Set<string>();
          const queue = root ? [root] : [];
          for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
            if (seen.has(id)) continue;
            seen.add(id);
            queue.push(...(this.getModuleInfo(id)?.importedIds ?? []));
          }
          return seen;
        };
        const start = find(APP_START_MODULE);
        if (!start) return; // the server build (entry-server.tsx) is left to the bundler
        const entry = staticClosure(find('src/main.tsx'));
        const closure = staticClosure(start);
        app = new Set([...closure].filter((id) => !entry.has(id) && !PAGES_ONLY.test(id)));
        const home = staticClosure(find(LANDING_PAGE_MODULES.home));
        landing = new Set(
          [...home].filter((id) => !app.has(id) && !entry.has(id) && !PAGES_ONLY.test(id)),
        );
      },
      /**
       * The manifest names a chunk by its entry module, and the two merged into a group (the app's
       * start, the home page) lose their names there: give them back, as the group's chunk, for the
       * server to find a page's code (server/src/plugins/web-shell.ts).
       */
      writeBundle(options, bundle) {
        const file = path.join(options.dir ?? 'dist', '.vite', 'manifest.json');
        if (!existsSync(file)) return; // the server build has no manifest
        const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
        const merged = [APP_START_MODULE, LANDING_PAGE_MODULES.home];
        for (const output of Object.values(bundle)) {
          if (output.type !== 'chunk') continue;
          for (const source of merged) {
            const key = `_${path.basename(output.fileName)}`;
            const inChunk = output.moduleIds.some((id) => id.endsWith(`/${source}`));
            if (inChunk && !manifest[source] && manifest[key]) manifest[source] = manifest[key];
          }
        }
        writeFileSync(file, JSON.stringify(manifest, null, 2));
      },
    },
    app: (id) => app.has(id),
    landing: (id) => landing.has(id),
  };
}

const shared = sharedChunks();

export default defineConfig({
  plugins: [
    shared.plugin,
    routerTreeShaken(),
    react(),
    tailwindcss(),
    // Installable and usable offline: docs/decisions/011-installable-offline.md.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      // main.tsx registers /sw.js itself, in a few lines; the plugin links the manifest in index.html.
      injectRegister: false,
      manifestFilename: 'manifest.webmanifest',
      // The icons are the campus's, drawn by the server (globIgnores below).
      includeManifestIcons: false,
      manifest: {
        id: '/',
        name: PLACEHOLDER_NAME,
        short_name: PLACEHOLDER_NAME,
        description: 'Buy and sell used course textbooks with students of your university.',
        lang: 'en',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: THEME_COLOR,
        background_color: BACKGROUND_COLOR,
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          {
            src: '/icons/icon-maskable-512.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
        ],
      },
      injectManifest: {
        // One classic script, as main.tsx registers it: the plugin's default (an ES module with
        // every import inlined) sets Rolldown's deprecated `inlineDynamicImports`.
        rollupFormat: 'iife',
        // The app shell and every page's code; not the ISBN scanner (its 1 MB decoder is fetched
        // when a seller presses Scan) nor the precompressed copies, nor the build's icons: the
        // server draws the campus's own at versioned addresses (server/src/plugins/web-icons.ts),
        // which the browser's cache keeps, so a new logo is never hidden behind a precached one.
        globPatterns: ['**/*.{js,css,html,svg,png}'],
        globIgnores: ['**/barcode-scanner-*.js', '**/*.{br,gz}', 'favicon.svg', 'icons/**'],
      },
    }),
  ],
  server: {
    // The API, and the campus's logo and icons the server draws from its campus file (the header
    // shows /campus-icons/logo.*).
    proxy: { '/api': 'http://localhost:3000', '/campus-icons': 'http://localhost:3000' },
  },
  // The manifest maps each page's source to its chunks: the server lists a landing page's code, and
  // the app shell's head preloads the app's. No dependency preloading in the app's code (modulePreload:
  // false, ~1.2 KB gzip of helper and chunk lists on the first load): a page opened from within the
  // app fetches its chunk, then the chunks it imports, and after the first visit the service worker
  // holds every chunk (docs/decisions/011), so that second step costs nothing.
  build: {
    outDir: 'dist',
    sourcemap: false,
    manifest: true,
    modulePreload: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // React's own code, which a server-rendered page runs in a task before the app's
            // (main.tsx): ~16 bytes more to download than inside `app`.
            {
              name: 'react',
              test: /\/node_modules\/(react|react-dom|scheduler)\//,
              priority: 1,
              includeDependenciesRecursively: false,
            },
            { name: 'app', test: shared.app, includeDependenciesRecursively: false },
            { name: 'landing', test: shared.landing, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
});
