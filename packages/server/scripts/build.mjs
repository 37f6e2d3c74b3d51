// Bundles the server for production (`npm run build`, which `npm start` runs first):
//   node packages/server/scripts/build.mjs [--outdir DIR]   (default packages/server/dist)
// gives DIR/server.js, plain JavaScript, so a start does not transform TypeScript (tsx) every time,
// and the operator's commands beside it: DIR/ops.js (`npm run backup`, `restore`, `migrate-data`)
// and DIR/demo.js (`npm run demo`), sharing the server's chunks.
// - Packages from node_modules stay external: Node loads them at run time as usual (native modules,
//   PGlite's wasm and data files, all where their packages expect them). So DIR must be inside
//   packages/server, for Node to find the server's own node_modules.
// - The workspace's TypeScript (the server, @campus-books/common) is bundled in.
// - Code the server loads on demand (`await import()`: S3 storage, the upload stack, the database
//   drivers) goes into chunks of its own, loaded when first needed, as from the sources.
// - Source files that find files beside themselves through `import.meta.url` (the migrations folder,
//   the web app's dist folder, the password threads' code, plain JavaScript:
//   src/features/accounts/password.worker.js) keep doing so: in the bundle it is the URL of their
//   source file.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const SERVER_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { outdir: { type: 'string' } } });
const outdir = path.resolve(values.outdir ?? path.join(SERVER_ROOT, 'dist'));
if (path.relative(SERVER_ROOT, outdir).startsWith('..')) {
  throw new Error(`--outdir must be inside ${SERVER_ROOT} (Node resolves packages from there)`);
}

/** `import.meta.url` of a bundled source file becomes its source's URL, relative to the bundle. */
const sourceUrls = {
  name: 'source-import-meta-url',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, async ({ path: file }) => {
      const source = await readFile(file, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const relative = path.relative(outdir, file).split(path.sep).join('/');
      return {
        contents: source.replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(relative)}, import.meta.url).href`,
        ),
        loader: 'ts',
      };
    });
  },
};

/** Bare imports are external, except the workspace's own packages (TypeScript sources). */
const externalPackages = {
  name: 'external-packages',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, ({ path: specifier }) =>
      specifier.startsWith('@campus-books/') ? undefined : { path: specifier, external: true },
    );
  },
};

// Stale chunks of a previous build would never be loaded, but they would pile up.
if (existsSync(outdir)) {
  for (const entry of readdirSync(outdir, { withFileTypes: true })) {
    if (entry.isFile() && /\.js(\.map)?$/.test(entry.name)) rmSync(path.join(outdir, entry.name));
  }
}

const started = performance.now();
await build({
  entryPoints: {
    server: path.join(SERVER_ROOT, 'src/server.ts'),
    ops: path.join(SERVER_ROOT, 'src/ops/cli.ts'),
    demo: path.join(SERVER_ROOT, 'src/ops/demo.script.ts'),
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  chunkNames: '[name]-[hash]',
  sourcemap: 'linked',
  plugins: [externalPackages, sourceUrls],
  logLevel: 'warning',
});
console.log(
  `server bundled into ${path.relative(process.cwd(), outdir) || '.'} in ${Math.round(performance.now() - started)} ms`,
);
