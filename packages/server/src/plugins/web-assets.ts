import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { accepts, matchesEtag } from '../lib/content-negotiation';

/** The service worker (docs/decisions/011): the browser must ask for a new one on every visit. */
const SERVICE_WORKER_FILE = 'sw.js';
const MANIFEST_FILE = 'manifest.webmanifest';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

/**
 * Names the router takes literally: find-my-way reads `:` and `*` as parameters, so a file with
 * any other character is not served (Vite's hashed names never have one).
 */
const ROUTABLE_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+$/;
const ENCODINGS = ['br', 'gzip'] as const;
type Encoding = (typeof ENCODINGS)[number] | 'identity';
const SIBLING_SUFFIX: Record<Exclude<Encoding, 'identity'>, string> = { br: '.br', gzip: '.gz' };

/** One encoding of a file, with every header of its 200 answer computed once at start-up. */
interface Variant {
  body: Buffer;
  etag: string;
  headers: Record<string, string>;
}

interface Asset {
  variants: Partial<Record<Encoding, Variant>> & { identity: Variant };
}

/** The rule web.ts's @fastify/static setHeaders had: hashed assets forever, the worker never. */
export function cacheControlFor(urlPath: string): string {
  if (urlPath.startsWith('/assets/')) return 'public, max-age=31536000, immutable';
  const name = urlPath.slice(urlPath.lastIndexOf('/') + 1);
  // Checked on every visit, so a deploy's worker (and its new shell) is found at once.
  if (name === SERVICE_WORKER_FILE) return 'no-cache';
  // Made from the campus at start (web-campus.ts): a restart with another campus shows at once.
  if (name === MANIFEST_FILE) return 'no-cache';
  return 'public, max-age=3600';
}

function* filesUnder(dir: string, prefix = ''): Generator<{ full: string; urlPath: string }> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    // Dot files are never served; symbolic links are not followed out of the folder.
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    const urlPath = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) yield* filesUnder(full, urlPath);
    else if (entry.isFile()) yield { full, urlPath };
  }
}

/** The latest modification time of `files` (one missing mid-deployment counts as 0). */
function latestChange(files: readonly string[]): number {
  let latest = 0;
  for (const file of files)
    latest = Math.max(latest, statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0);
  return latest;
}

function variantOf(
  body: Buffer,
  urlPath: string,
  encoding: Encoding,
  hasSiblings: boolean,
): Variant {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
  const headers: Record<string, string> = {
    'content-type':
      CONTENT_TYPES[path.extname(urlPath).toLowerCase()] ?? 'application/octet-stream',
    'cache-control': cacheControlFor(urlPath),
    'x-content-type-options': 'nosniff',
    etag,
  };
  if (encoding !== 'identity') headers['content-encoding'] = encoding;
  if (hasSiblings) headers.vary = 'Accept-Encoding';
  return { body, etag, headers };
}

/** A built file's contents as the server answers them (the campus put into it), by URL path. */
export type AssetRewrites = Record<string, (body: string) => string>;

/**
 * Every file of the built app (`.br`/`.gz` siblings as encodings of their file), by URL path; a
 * rewritten file is answered as its rewrite made it, its precompressed siblings left out.
 */
export function loadAssets(
  distDir: string,
  rewrites: AssetRewrites = {},
): {
  assets: Map<string, Asset>;
  skipped: string[];
  /**
   * The paths on disk of the file and its precompressed siblings, and its asset read again (a file
   * that changed since start-up).
   */
  source: (urlPath: string) => { files: string[]; reload: () => Asset };
} {
  const files = new Map<string, string>();
  for (const { full, urlPath } of filesUnder(distDir)) files.set(urlPath, full);
  /** The precompressed siblings a file is answered with: none for a rewritten file. */
  const siblingsOf = (urlPath: string) =>
    Object.hasOwn(rewrites, urlPath)
      ? []
      : ENCODINGS.filter((e) => files.has(urlPath + SIBLING_SUFFIX[e]));
  const read = (urlPath: string): Asset => {
    const rewrite = Object.hasOwn(rewrites, urlPath) ? rewrites[urlPath] : undefined;
    const siblings = siblingsOf(urlPath);
    const hasSiblings = siblings.length > 0;
    const built = readFileSync(files.get(urlPath)!);
    const body = rewrite ? Buffer.from(rewrite(built.toString('utf8'))) : built;
    const variants: Asset['variants'] = {
      identity: variantOf(body, urlPath, 'identity', hasSiblings),
    };
    for (const e of siblings)
      variants[e] = variantOf(
        readFileSync(files.get(urlPath + SIBLING_SUFFIX[e])!),
        urlPath,
        e,
        true,
      );
    return { variants };
  };
  const assets = new Map<string, Asset>();
  const skipped: string[] = [];
  for (const urlPath of files.keys()) {
    const isSibling = ENCODINGS.some(
      (e) => urlPath.endsWith(SIBLING_SUFFIX[e]) && files.has(urlPath.slice(0, -3)),
    );
    if (isSibling) continue;
    if (!ROUTABLE_PATH.test(urlPath)) {
      skipped.push(urlPath);
      continue;
    }
    assets.set(urlPath, read(urlPath));
  }
  const source = (urlPath: string) => ({
    files: [urlPath, ...siblingsOf(urlPath).map((e) => urlPath + SIBLING_SUFFIX[e])].map((p) =>
      files.get(p)!,
    ),
    reload: () => read(urlPath),
  });
  return { assets, skipped, source };
}

export { accepts, matchesEtag };

interface VersionedFile {
  body: string | Buffer;
  type: string;
  version: string;
}

/**
 * GET `address` of one file the server made at start (the campus's stylesheet, logo and icons): the
 * page links it with `?v=<version>`, an address kept forever (a new file is a new address); any
 * other is checked on every use.
 */
export function registerVersionedFile(
  app: FastifyInstance,
  address: string,
  fileOrOf: VersionedFile | (() => VersionedFile | undefined),
) {
  app.get(
    address,
    { schema: { hide: true }, logLevel: 'warn' },
    (request: FastifyRequest, reply: FastifyReply) => {
      // A function: the request's own file (each campus's stylesheet, decision 024).
      const file = typeof fileOrOf === 'function' ? fileOrOf() : fileOrOf;
      // None for this request (a campus without this icon): as if no route had matched.
      if (!file) return reply.callNotFound();
      const etag = `"${file.version}"`;
      const asked = (request.query as { v?: unknown }).v;
      void reply
        .header(
          'Cache-Control',
          asked === file.version ? 'public, max-age=31536000, immutable' : 'no-cache',
        )
        .header('ETag', etag)
        .header('X-Content-Type-Options', 'nosniff');
      const ifNoneMatch = request.headers['if-none-match'];
      if (ifNoneMatch && matchesEtag(ifNoneMatch, etag)) return reply.status(304).send();
      return reply.type(file.type).send(file.body);
    },
  );
}

function chooseVariant(asset: Asset, acceptEncoding: string | undefined): Variant {
  if (acceptEncoding) {
    for (const e of ENCODINGS) {
      const variant = asset.variants[e];
      if (variant && accepts(acceptEncoding, e)) return variant;
    }
  }
  return asset.variants.identity;
}

export interface WebAssetsOptions {
  /** Folder of the built web app. */
  distDir: string;
  /** Files answered with the campus put into them (web.ts: the manifest, index.html). */
  rewrites?: AssetRewrites;
  /**
   * What a rewrite reads besides the file (web.ts: the request's campus, decision 024): a rewritten
   * file is made again, on its first request, for each value other than the one at start.
   */
  rewrittenFor?: () => object;
}

/**
 * Serves the built web app's files from memory: read once at start-up with their precompressed
 * siblings (packages/web/scripts/precompress.mjs), each answer's headers and strong ETag computed
 * then. One exact route per file, so only those files answer: an encoded or dotted path matches none
 * and falls to the not-found handler.
 */
export default fp(
  async function webAssetsPlugin(app: FastifyInstance, options: WebAssetsOptions) {
    const { assets, skipped, source } = loadAssets(options.distDir, options.rewrites);
    if (skipped.length > 0)
      app.log.warn({ files: skipped }, 'web files with names the router cannot take: not served');

    const startedFor = options.rewrittenFor?.();
    for (const [urlPath, loaded] of assets) {
      let asset = loaded;
      const isRewritten =
        options.rewrites !== undefined && Object.hasOwn(options.rewrites, urlPath);
      /** The file made for each other value of rewrittenFor, with the file's time it was made at. */
      const madeFor = new WeakMap<object, { asset: Asset; at: number }>();
      // A file the browser checks on every visit (the service worker) is read again when it or a
      // compressed copy changes on disk, so a worker deployed beside a running server is found,
      // whichever of its files is written last; the rest never are.
      const watched = cacheControlFor(urlPath) === 'no-cache' ? source(urlPath) : undefined;
      const changedAt = () => (watched ? latestChange(watched.files) : 0);
      let seenAt = changedAt();
      const current = () => {
        if (!watched) return asset;
        const at = changedAt();
        if (at !== seenAt) {
          try {
            asset = watched.reload();
            seenAt = at;
          } catch {
            // Caught mid-write: the copy in memory is answered, and the file read on the next ask.
          }
        }
        return asset;
      };
      /** The file as made for `value` (in the request's context: the rewrite reads it), on first use. */
      const currentFor = (value: object) => {
        const at = changedAt();
        const kept = madeFor.get(value);
        if (kept && kept.at === at) return kept.asset;
        try {
          const made = source(urlPath).reload();
          madeFor.set(value, { asset: made, at });
          return made;
        } catch (error) {
          if (kept) return kept.asset;
          throw error;
        }
      };
      app.route({
        method: 'GET',
        url: urlPath,
        // Outside the API's contract (no OpenAPI entry); already compressed, or not worth it.
        schema: { hide: true },
        compress: false,
        // No access-log line per file (a page load asks for dozens); warnings and errors still are.
        logLevel: 'warn',
        handler(request: FastifyRequest, reply: FastifyReply) {
          const rewrittenFor = isRewritten ? options.rewrittenFor?.() : undefined;
          const answered =
            rewrittenFor !== undefined && rewrittenFor !== startedFor
              ? currentFor(rewrittenFor)
              : current();
          const variant = chooseVariant(answered, request.headers['accept-encoding']);
          reply.headers(variant.headers);
          const ifNoneMatch = request.headers['if-none-match'];
          if (ifNoneMatch && matchesEtag(ifNoneMatch, variant.etag)) {
            reply.removeHeader('content-type');
            return reply.code(304).send();
          }
          return reply.send(variant.body);
        },
      });
    }
  },
  { name: 'web-assets' },
);
