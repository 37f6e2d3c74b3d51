/** Content negotiation and conditional requests, shared by every answer kept in memory. */

/** Whether Accept-Encoding allows `coding` (named, or by `*`, with a q-value above 0). */
export function accepts(acceptEncoding: string, coding: string): boolean {
  let wildcard = false;
  for (const part of acceptEncoding.split(',')) {
    const [rawName = '', ...params] = part.split(';');
    const name = rawName.trim().toLowerCase();
    const q = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
    const allowed = q === undefined || Number(q.slice(2)) > 0;
    if (name === coding) return allowed;
    if (name === '*') wildcard = allowed;
  }
  return wildcard;
}

/** If-None-Match names this entity tag (weak comparison, as RFC 9110 asks for this header). */
export function matchesEtag(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
