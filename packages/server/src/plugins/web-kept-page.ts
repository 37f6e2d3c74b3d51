import type { FastifyReply, FastifyRequest } from 'fastify';
import { bodyOf, PAGE_ENCODINGS, type CachedPage, type PageEncoding } from './page-cache';
import { accepts, matchesEtag } from './web-assets';

/** A signed-out visitor's page from memory, in the encoding they accept, with its ETag (304). */
export function sendKeptPage(request: FastifyRequest, reply: FastifyReply, page: CachedPage) {
  const acceptEncoding = request.headers['accept-encoding'];
  const encoding: PageEncoding =
    (acceptEncoding && PAGE_ENCODINGS.find((e) => accepts(acceptEncoding, e))) || 'identity';
  void reply
    .status(page.status)
    // Signed-in visitors get their own page at this address: never kept by a shared cache.
    .header('Cache-Control', 'private, no-cache')
    .header('Vary', 'Accept-Encoding, Cookie')
    .header('ETag', page.etags[encoding])
    .header('X-Content-Type-Options', 'nosniff');
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch && matchesEtag(ifNoneMatch, page.etags[encoding])) {
    return reply.status(304).send();
  }
  if (encoding !== 'identity') void reply.header('Content-Encoding', encoding);
  return reply.type('text/html; charset=utf-8').send(bodyOf(page, encoding));
}
