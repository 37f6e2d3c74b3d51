import type {
  LandingPage,
  RenderPageInput,
  RenderedPage,
  ServerRenderer,
} from '@campus-books/common/server-rendering';

// A stand-in for the web app's server build (packages/web/src/entry-server.tsx) in the server's
// tests: it reads addresses as the real one does for the cases tested, and "renders" what it is
// given as JSON, in small chunks, so the server's part (loading, status, streaming, the head) is
// tested without building the web app. The real renderer is tested in the browser
// (packages/e2e/tests/server-rendering.spec.ts).

/** Every input the stand-in was asked to render, newest last. */
export const rendered: RenderPageInput[] = [];

function matchLandingPage(pathname: string, search: string): LandingPage | null {
  if (pathname === '/') return { kind: 'home' };
  if (pathname === '/boom') return { kind: 'home' };
  if (pathname === '/about') return { kind: 'about' };
  if (pathname === '/privacy') return { kind: 'privacy' };
  if (pathname === '/search') {
    const params = new URLSearchParams(search);
    if (!params.has('status')) return { kind: 'redirect', location: `/search?${params}&status=x` };
    return { kind: 'search', query: Object.fromEntries(params) };
  }
  const listing = /^\/listing\/([^/]+)$/.exec(pathname);
  if (listing) return { kind: 'listing', listingId: decodeURIComponent(listing[1]!) };
  const course = /^\/course\/([^/]+)$/.exec(pathname);
  if (course) return { kind: 'course', code: decodeURIComponent(course[1]!) };
  return null;
}

async function renderPage(input: RenderPageInput): Promise<RenderedPage> {
  if (input.url === '/boom') throw new Error('the render failed');
  rendered.push(input);
  const html = `<title>Rendered ${input.page.kind}</title><link rel="preload" as="image" href="/p.webp"/><section id="data">${JSON.stringify(input.data).replace(/</g, '&lt;')}</section>`;
  async function* chunks() {
    // Small chunks: the head must be found across them.
    for (let at = 0; at < html.length; at += 7)
      yield new TextEncoder().encode(html.slice(at, at + 7));
  }
  const missing = input.data?.kind === 'listing' && input.data.listing === null;
  return {
    html: chunks(),
    stateJson: JSON.stringify({ user: input.user?._id ?? null }),
    status: missing ? 404 : 200,
    modules: [],
  };
}

/** A search address with a `ref` parameter is not one the web app writes. */
const isCanonicalAddress = (pathname: string, search: string) =>
  pathname === '/search' ? !new URLSearchParams(search).has('ref') : search === '';

export const renderer: ServerRenderer = { matchLandingPage, renderPage, isCanonicalAddress };
