// A relative path: the config loader bundles it (the package's TypeScript export Node cannot load).
import { PRODUCT_NAME, UNIVERSITY_NAME } from '../common/src/campus';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/** brand-700 (the header, the theme-color meta) and slate-50 (the page) of src/index.css. */
const THEME_COLOR = '#1c46a3';
const BACKGROUND_COLOR = '#f8fafc';

export default defineConfig({
  plugins: [
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
      // The icons are precached by globPatterns below.
      includeManifestIcons: false,
      manifest: {
        id: '/',
        name: `${PRODUCT_NAME} · ${UNIVERSITY_NAME}`,
        short_name: PRODUCT_NAME,
        description: `Buy and sell used course textbooks with students of the ${UNIVERSITY_NAME}.`,
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
        // The app shell and every page's code; not the ISBN scanner (its 1 MB decoder is fetched
        // when a seller presses Scan) nor the precompressed copies.
        globPatterns: ['**/*.{js,css,html,svg,png}'],
        globIgnores: ['**/barcode-scanner-*.js', '**/*.{br,gz}'],
      },
    }),
  ],
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
  // The manifest maps each page's source to its chunk: the server preloads a landing page's code.
  // No modulepreload polyfill in the entry script: every browser the app supports preloads modules
  // itself (one without would only fetch a chunk when it is imported).
  build: { outDir: 'dist', sourcemap: false, manifest: true, modulePreload: { polyfill: false } },
});
