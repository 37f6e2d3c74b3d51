import { z } from 'zod';
import {
  coverHostsOf,
  coverOn,
  fetchProviderJson,
  textOf,
  yearOf,
  type BookProvider,
  type FoundBook,
} from './book-lookup';

/**
 * Google Books' volumes search (needs a key): GET /books/v1/volumes?q=isbn:{isbn}&key={key} answers
 * `{"kind": "books#volumes", "totalItems": 0}` for an unknown book, else `items[].volumeInfo`
 * (https://developers.google.com/books/docs/v1/reference/volumes/list).
 */
const volumesAnswer = z.object({
  totalItems: z.number().int(),
  items: z
    .array(
      z.object({
        volumeInfo: z.object({
          title: z.string().optional(),
          authors: z.array(z.string()).optional(),
          publisher: z.string().optional(),
          publishedDate: z.string().optional(),
          imageLinks: z.object({ thumbnail: z.string().optional() }).optional(),
        }),
      }),
    )
    .optional(),
});

/** "Calculus, 8th Edition" names its edition in the title; Google has no edition field. */
const EDITION_IN_TITLE = /\b(\d+(?:st|nd|rd|th))\s+ed(?:ition|\.)?\b/i;

export function googleBooksProvider(
  baseUrl: string,
  coversUrl: string,
  apiKey: string,
): BookProvider {
  const name = 'Google Books';
  return {
    name,
    coverHosts: coverHostsOf(coversUrl),
    async lookup(isbn13, signal): Promise<FoundBook | null> {
      const url = `${baseUrl}/books/v1/volumes?q=isbn:${isbn13}&key=${encodeURIComponent(apiKey)}`;
      const answer = await fetchProviderJson(name, url, volumesAnswer, signal);
      const volume = answer?.items?.[0]?.volumeInfo;
      if (!volume) return null;
      return {
        title: textOf(volume.title),
        authors: textOf(volume.authors?.join(', ')),
        edition: textOf(EDITION_IN_TITLE.exec(volume.title ?? '')?.[1], 40),
        publisher: textOf(volume.publisher),
        year: yearOf(volume.publishedDate),
        coverUrl: coverOn(volume.imageLinks?.thumbnail, coversUrl),
      };
    },
  };
}
