import { sql, type SQL } from 'drizzle-orm';
import { listings } from '../../db/schema';

/**
 * A listing's answer as JSON text, as the database wrote it with the row (db/listing-json-trigger.ts): what
 * `JSON.stringify(toListing(row))` would give, for the search, whose answers are the server's most
 * frequent. The server then neither parses the row's columns nor builds and serializes an object
 * per listing: it joins the texts; and the database neither plans nor runs the 31 fields'
 * expressions on each read (docs/performance.md, "Where the CPU goes").
 */
export const listingJson: SQL<string> = sql<string>`${listings.listingJson}`;

/** The answer of a search page: a JSON array of listings' JSON texts. */
export const jsonArray = (texts: string[]): string => `[${texts.join(',')}]`;
