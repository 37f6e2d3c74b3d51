import type { z } from 'zod';
import { urlHostKey } from '@campus-books/common/host-name';

/** What a provider knows about a book; every field may be unknown. */
export interface FoundBook {
  title: string | null;
  authors: string | null;
  edition: string | null;
  publisher: string | null;
  year: number | null;
  /** A cover image on one of the provider's `coverHosts`, else null. */
  coverUrl: string | null;
}

/** A book database asked by ISBN (Open Library, Google Books); one interface, tried in turn. */
export interface BookProvider {
  name: string;
  /** The book, null when the provider does not know it; throws BookProviderError when it fails. */
  lookup(isbn13: string, signal: AbortSignal): Promise<FoundBook | null>;
  /**
   * Hosts its cover URLs may point at: the only hosts a cover is ever fetched from, each in its one
   * spelling with its port (common's host-name.ts `urlHostKey`, as the cover's URL is compared).
   */
  coverHosts: string[];
}

/** The provider could not answer (HTTP error, 429, malformed answer, timeout). */
export class BookProviderError extends Error {
  constructor(provider: string, reason: string) {
    super(`${provider}: ${reason}`);
    this.name = 'BookProviderError';
  }
}

/** How long a provider may take before the form is left to the seller. */
export const LOOKUP_TIMEOUT_MS = 3000;

/**
 * GETs a provider's JSON answer and reads it with `schema`. Redirects are refused (a provider never
 * needs one, and a redirect could lead anywhere); a 404 is a miss (null).
 */
export async function fetchProviderJson<T>(
  provider: string,
  url: string,
  schema: z.ZodType<T>,
  signal: AbortSignal,
): Promise<T | null> {
  let response: Response;
  try {
    response = await fetch(url, {
      signal,
      redirect: 'error',
      headers: { accept: 'application/json' },
    });
  } catch (error) {
    throw new BookProviderError(provider, signal.aborted ? 'timed out' : String(error));
  }
  if (response.status === 404) return null;
  if (!response.ok) throw new BookProviderError(provider, `answered ${response.status}`);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new BookProviderError(provider, 'answered malformed JSON');
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new BookProviderError(provider, 'answered an unexpected shape');
  return parsed.data;
}

/** The first four-digit year of a publication date ('2009', 'July 31, 2009', '2009-07-31'). */
export function yearOf(date: string | undefined): number | null {
  const match = /\b(1[5-9]\d\d|20\d\d)\b/.exec(date ?? '');
  return match ? Number(match[1]) : null;
}

/** Text trimmed and cut to `max` characters; null when empty. */
export function textOf(value: string | undefined | null, max = 200): string | null {
  const text = value?.replace(/\s+/g, ' ').trim() ?? '';
  return text === '' ? null : text.slice(0, max);
}

/** The hosts of a provider's covers (`BookProvider.coverHosts`): the covers' base URL's. */
export function coverHostsOf(coversBaseUrl: string): string[] {
  const host = urlHostKey(new URL(coversBaseUrl));
  return host === null ? [] : [host];
}

/**
 * The URL when it is on the covers' host over http(s), upgraded to the host's scheme; else null.
 * Hosts are compared in their one spelling (`Covers.Example.` is `covers.example`).
 */
export function coverOn(url: string | undefined, coversBaseUrl: string): string | null {
  if (!url) return null;
  try {
    const cover = new URL(url);
    const base = new URL(coversBaseUrl);
    const host = urlHostKey(cover);
    if (host === null || host !== urlHostKey(base) || !/^https?:$/.test(cover.protocol)) {
      return null;
    }
    cover.protocol = base.protocol;
    return cover.toString();
  } catch {
    return null;
  }
}
