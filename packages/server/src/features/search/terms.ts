import { and, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { textLiteral } from '../../db/literal';
import { rowsOf } from '../../db/rows';
import { listings, listingWords } from '../../db/schema';
import type { CatalogueCache } from './search-cache';
import { p, type Build } from './placeholders';

/** Escapes LIKE's wildcards so a search for '%' or '_' matches those characters literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * A term word resembles a vocabulary word at this pg_trgm similarity or more: one wrong, missing or
 * extra letter in a word of 7+ letters ('calclus' 0.55 against 'calculus', 'orgnic' 0.5 against
 * 'organic'), not a different short word ('law' 0.33 against 'lab').
 */
export const WORD_SIMILARITY = 0.45;
/** Vocabulary words tried per term word: the most similar ones, and the ones containing it. */
const SIMILAR_PER_WORD = 8;
const CONTAINING_PER_WORD = 200;

/**
 * What the vocabulary says about a term: for each of its words (as `listing_name_words` splits a
 * name, migration 0004: lower case, letters and digits, 3+ characters), whether some name holds it
 * as a whole word, and the other words of names that contain it ('precalculus' for 'calculus') or
 * resemble it ('calculus' for 'calclus').
 */
export interface TermResolution {
  words: {
    word: string;
    exact: boolean;
    others: string[];
    /** How many names hold the word itself, and how many the others (a name may count twice). */
    listings: number;
    othersListings: number;
  }[];
  /** PostgreSQL's estimate of the listings' rows (pg_class.reltuples; negative: never measured). */
  catalogueRows: number;
  /**
   * The vocabulary's words version (catalogue_version, migration 0033) the words were read at; null
   * for a term without words, which no vocabulary changes.
   */
  wordsVersion: number | null;
}

/**
 * A resolution as a search used it: read at `wordsVersion`, kept since the caches' `generation`
 * (listing-caches.ts), under `key` in the terms' cache. A page whose rows read another words
 * version was built from words the vocabulary no longer says (search-listings.ts).
 */
export interface TermResolved {
  key: string;
  wordsVersion: number | null;
  generation: number;
}

/** A resolution as the terms' cache keeps it: with the caches' generation it was read in. */
export type KeptTermResolution = TermResolution & { generation: number };

async function resolveTerm(db: Db, term: string): Promise<TermResolution> {
  // One statement: the term is split by the same function as the names. LIKE and `%` (pg_trgm's
  // similarity at its 0.3 default) walk listing_words_trgm_idx; the similarity floor refines.
  const rows = await rowsOf<{
    term: string;
    word: string | null;
    kind: 'exact' | 'other' | null;
    listings: number | null;
    catalogueRows: number;
    wordsVersion: number;
  }>(
    db,
    sql`
    SELECT t.w AS term, v.word, v.kind, v.listings,
      (SELECT reltuples FROM pg_class WHERE oid = ${textLiteral('public.listings')}::regclass)::float8
        AS "catalogueRows",
      (SELECT words_version FROM catalogue_version WHERE id = 1)::float8 AS "wordsVersion"
    FROM listing_name_words(${term}) AS t(w)
    LEFT JOIN LATERAL (
      SELECT word, 'exact' AS kind, listings FROM ${listingWords} WHERE word = t.w
      UNION ALL
      (SELECT word, 'other', listings FROM ${listingWords}
        WHERE word LIKE '%' || t.w || '%' AND word <> t.w
        ORDER BY word LIMIT ${CONTAINING_PER_WORD})
      UNION ALL
      (SELECT word, 'other', listings FROM ${listingWords}
        WHERE word % t.w AND similarity(word, t.w) >= ${WORD_SIMILARITY}
          AND word NOT LIKE '%' || t.w || '%'
        ORDER BY similarity(word, t.w) DESC, word LIMIT ${SIMILAR_PER_WORD})
    ) AS v ON true`,
  );
  const words = new Map<string, TermResolution['words'][number]>();
  for (const row of rows) {
    const entry = words.get(row.term) ?? {
      word: row.term,
      exact: false,
      others: [],
      listings: 0,
      othersListings: 0,
    };
    words.set(row.term, entry);
    if (row.kind === 'exact') {
      entry.exact = true;
      entry.listings = Number(row.listings);
    } else if (row.word !== null) {
      entry.others.push(row.word);
      entry.othersListings += Number(row.listings);
    }
  }
  const first = rows[0];
  return {
    words: [...words.values()],
    catalogueRows: Number(first?.catalogueRows ?? -1),
    wordsVersion: first ? Number(first.wordsVersion) : null,
  };
}

const lowerName = sql`lower(${listings.name})`;
const contains: Build = () => sql`${lowerName} LIKE lower(${p('pattern')}) ESCAPE '\\'`;
/** The words of the name (a stored generated column with the GIN index listings_name_words_idx). */
const nameWords = listings.nameWords;

/**
 * How a term matches a name, and which names match it best.
 *
 * A term with words of 3+ letters or digits matches the names that hold, for every such word, that
 * word or a vocabulary word containing or resembling it, in any order: 'calclus' finds 'Calculus II',
 * 'chemistry orgnic' finds 'Organic Chemistry', 'calc' finds both. The best matches hold every word
 * exactly (and the term as typed, if it has shorter words: 'calculus ii'). Both are array operators
 * on the GIN index of the names' words, whose statistics tell the planner how common a word is, so it
 * walks the date index for a common word and the GIN index for a rare one (each statement is planned
 * with its values: SearchShape's `plan`), unless the vocabulary's counts already say the walk is
 * cheaper (isWalkCheaper).
 *
 * A term without such words ('%', 'c_p', 'ii') matches the names containing it as typed (LIKE, with
 * `%`, `_` and `\` as plain characters; the trigram index listings_name_trgm_idx serves it).
 *
 * `matches` null: nothing can match. `best` null: nothing matches better than the rest.
 */
export interface TermMatch {
  key: string;
  values: Record<string, unknown>;
  matches: Build | null;
  best: Build | null;
  /** `matches` written so that no index of the words can serve it (searchShape's walk). */
  matchesByWalk?: Build;
  /** How many names may match, as the vocabulary counts them (words taken as independent). */
  estimate?: { matches: number; catalogueRows: number };
  /** What the vocabulary was read at, when a term's resolution came from or went to the cache. */
  resolved?: TermResolved;
  /**
   * At most how many names are among the first group of matches (the best ones when there are
   * tiers), as the vocabulary counts them: as many as hold the term's rarest word or its
   * alternatives (a subject's words come together, so this is often close).
   */
  firstAtMost?: { matches: number; catalogueRows: number };
}

/**
 * How a term matches names; what the vocabulary says about it comes from `terms` when given, kept
 * there with the caches' `generation` it was read in.
 */
export async function matchTerm(
  db: Db,
  term: string,
  terms?: CatalogueCache<KeptTermResolution>,
  generation = 0,
): Promise<TermMatch> {
  const key = term.toLowerCase();
  const kept = terms
    ? await terms.getOrLoad(key, async () => ({ ...(await resolveTerm(db, key)), generation }))
    : undefined;
  const match = matchWords(term, key, kept ?? (await resolveTerm(db, key)));
  return kept
    ? { ...match, resolved: { key, wordsVersion: kept.wordsVersion, generation: kept.generation } }
    : match;
}

/** How a term matches names, given what the vocabulary says about its words. */
function matchWords(
  term: string,
  key: string,
  { words, catalogueRows }: TermResolution,
): TermMatch {
  if (words.length === 0) {
    return {
      key: 'contains',
      values: { pattern: `%${escapeLike(term)}%` },
      matches: contains,
      best: null,
    };
  }
  const alternatives = words.map((w) => (w.exact ? [w.word, ...w.others] : w.others));
  if (alternatives.some((a) => a.length === 0)) {
    return { key: 'nothing', values: {}, matches: null, best: null };
  }
  const values: Record<string, unknown> = {};
  alternatives.forEach((a, i) => (values[`w${i}`] = a));
  const matches = () =>
    and(...alternatives.map((_a, i) => sql`${nameWords} && ${p(`w${i}`)}::text[]`))!;
  const matchesByWalk = () =>
    and(
      ...alternatives.map((_a, i) => sql`coalesce(${nameWords}, '{}') && ${p(`w${i}`)}::text[]`),
    )!;
  const estimate = {
    matches: words.reduce(
      (n, w) => n * Math.min(1, ((w.exact ? w.listings : 0) + w.othersListings) / catalogueRows),
      catalogueRows,
    ),
    catalogueRows,
  };
  const shape = `words${words.length}`;
  const anyAtMost = {
    matches: Math.min(...words.map((w) => (w.exact ? w.listings : 0) + w.othersListings)),
    catalogueRows,
  };
  const oneGroup = {
    key: shape,
    values,
    matches,
    best: null,
    matchesByWalk,
    estimate,
    firstAtMost: anyAtMost,
  };
  if (!words.every((w) => w.exact)) return oneGroup;
  const hasShortWords = key.split(/[^\p{L}\p{N}]+/u).some((w) => w.length > 0 && w.length < 3);
  // Nothing but the exact words can match (no other word contains or resembles them): one group.
  if (!hasShortWords && words.every((w) => w.others.length === 0)) return oneGroup;
  values.exactWords = words.map((w) => w.word);
  const exact = () => sql`${nameWords} @> ${p('exactWords')}::text[]`;
  const firstAtMost = { matches: Math.min(...words.map((w) => w.listings)), catalogueRows };
  if (!hasShortWords) return { key: `${shape}:best`, values, matches, best: exact, firstAtMost };
  values.pattern = `%${escapeLike(term)}%`;
  return {
    key: `${shape}:best-as-typed`,
    values,
    matches,
    best: () => and(exact(), contains())!,
    firstAtMost,
  };
}
