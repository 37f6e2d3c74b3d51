import { z } from 'zod';
import {
  coverHostsOf,
  fetchProviderJson,
  textOf,
  yearOf,
  type BookProvider,
  type FoundBook,
} from './book-lookup';

/**
 * Open Library's Books API (no key): GET /api/books?bibkeys=ISBN:{isbn}&format=json&jscmd=details
 * answers `{}` for an unknown book, else `{"ISBN:{isbn}": {details: {...}}}`
 * (https://openlibrary.org/dev/docs/api/books).
 */
const detailsAnswer = z.record(
  z.string(),
  z.object({
    details: z.object({
      title: z.string().optional(),
      subtitle: z.string().optional(),
      authors: z.array(z.object({ name: z.string() })).optional(),
      by_statement: z.string().optional(),
      publishers: z.array(z.string()).optional(),
      publish_date: z.string().optional(),
      edition_name: z.string().optional(),
      covers: z.array(z.number().int()).optional(),
    }),
  }),
);

export function openLibraryProvider(baseUrl: string, coversUrl: string): BookProvider {
  const name = 'Open Library';
  return {
    name,
    coverHosts: coverHostsOf(coversUrl),
    async lookup(isbn13, signal): Promise<FoundBook | null> {
      const url = `${baseUrl}/api/books?bibkeys=ISBN:${isbn13}&format=json&jscmd=details`;
      const answer = await fetchProviderJson(name, url, detailsAnswer, signal);
      const details = answer?.[`ISBN:${isbn13}`]?.details;
      if (!details) return null;
      const coverId = details.covers?.find((id) => id > 0);
      return {
        title: textOf(details.title),
        authors: textOf(details.authors?.map((a) => a.name).join(', ') ?? details.by_statement),
        edition: textOf(details.edition_name, 40),
        publisher: textOf(details.publishers?.[0]),
        year: yearOf(details.publish_date),
        coverUrl: coverId === undefined ? null : `${coversUrl}/b/id/${coverId}-L.jpg`,
      };
    },
  };
}
