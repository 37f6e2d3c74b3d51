/** The app shell's HTML: a page's head, React's hoisted tags and the module preloads put into it. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { escapeHtml } from '../lib/html';

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

/** The shell around the app's HTML: everything before the root element's content, and after. */
export function splitShell(html: string): { before: string; after: string } | null {
  const marker = '<div id="root"></div>';
  const at = html.indexOf(marker);
  if (at < 0) return null;
  const open = at + marker.length - '</div>'.length;
  return { before: html.slice(0, open), after: html.slice(open) };
}

/** How much of React's output is read before the page's <head> is sent: its preamble is far smaller. */
export const PREAMBLE_SCAN_BYTES = 16_384;
const PREAMBLE = /^(?:<title>[^<]*<\/title>|<(?:link|meta)\b[^>]*>)+/;

/** React's hoisted elements at the start of its output, and the rest. */
export function splitPreamble(html: string): { head: string; body: string } {
  const head = PREAMBLE.exec(html)?.[0] ?? '';
  return { head, body: html.slice(head.length) };
}

/** The shell's head with the page's own <title> (in place of the shell's) and hoisted tags. */
export function withHoisted(before: string, hoisted: string): string {
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

export interface ManifestChunk {
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
export function modulePreloadLinks(addresses: string[]): string {
  return addresses
    .map((href) => `<link rel="modulepreload" crossorigin href="${escapeHtml(href)}">`)
    .join('');
}

/** The client build's manifest (dist/.vite/manifest.json); empty when the build has none. */
export function readManifest(distDir: string): Record<string, ManifestChunk> {
  const file = path.join(distDir, '.vite', 'manifest.json');
  return existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestChunk>)
    : {};
}
