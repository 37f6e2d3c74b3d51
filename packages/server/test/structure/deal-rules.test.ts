import { describe, expect, it } from 'vitest';
import { isTestFile, readSource, sourceFiles } from './source-files';

/**
 * The deal's rules are stated once, in `src/deal/` (deal.ts, its SQL forms in deal.sql.ts, the
 * triggers generated from them in deal-triggers.ts), and asked everywhere else (docs/decisions/022).
 * This test fails on a copy written out again in the server's sources: a side of the deal decided
 * by comparing a student with its seller or buyer, the reveal of ratings computed by hand, or a list
 * of the kinds a student writes.
 */
const COPIES: Record<string, RegExp> = {
  // TypeScript: `x.sellerId === userId`, `row.buyer_id !== id` of a deal's row (a null check is no
  // decision; a listing's own seller, a plain `sellerId`, is the listing's rule).
  'a side decided by hand (use roleOf, participantRole)':
    /\.(?:seller|buyer)_?[Ii]d\s*[!=]==?\s*(?!null\b|undefined\b)[\w.]+|[\w.]+(?<!\bnull|\bundefined)\s*[!=]==?\s*[\w.]*\.(?:seller|buyer)_?[Ii]d\b/,
  // SQL: `c.seller_id = ${userId}`, `e.sender_id = c.seller_id` (joins to users are reads, not sides).
  'a side decided in SQL by hand (use deal.sql.ts)':
    /(?:\$\{[^}]+\}|\b(?:sender|from|rater|reporter)_id)\s*=\s*(?:\w+\.)?(?:seller|buyer)_id\b|\b(?:seller|buyer)_id\s*=\s*(?:\$\{|(?:\w+\.)?(?:sender|from|rater|reporter)_id\b)/,
  'the reveal computed by hand (use isRevealed, isRevealedSql)':
    /[-+]\s*(?:\w+\.)*revealMs\b|\brevealMs\s*[-+]|count\(\*\)[^`;]*?\)\s*=\s*2\b|\bratings\.length\s*===\s*2\b/,
  'the kinds a student writes listed again (use HUMAN_MESSAGE_KINDS)':
    /['"]message['"]\s*,\s*['"]offer['"]/,
};

const copiesIn = (source: string) =>
  Object.entries(COPIES)
    .filter(([, pattern]) => pattern.test(source))
    .map(([rule]) => rule);

describe("the deal's rules", () => {
  it('are written only in src/deal/', () => {
    const copies = sourceFiles()
      .filter((file) => file.startsWith('packages/server/src/') && !isTestFile(file))
      .filter((file) => !file.startsWith('packages/server/src/deal/'))
      .flatMap((file) => copiesIn(readSource(file)).map((rule) => `${file}: ${rule}`));
    expect(copies).toEqual([]);
  });

  it('finds the copies it looks for (the ones it replaced)', () => {
    const replaced = [
      "const role = row.seller_id === userId ? 'seller' : 'buyer';",
      'if (!open || open.fromId !== conversation.buyerId) throw conflict(M.counterNeedsOffer);',
      "sql`CASE WHEN c.seller_id = ${userId} THEN 'seller' ELSE 'buyer' END`",
      'sql`CASE WHEN e.sender_id = c.seller_id THEN c.buyer_id ELSE c.seller_id END`',
      'sql`WHERE e.seller_id = ${userId} OR e.buyer_id = ${userId}`',
      'const revealed = deps.now().getTime() >= new Date(row.sold_at).getTime() + deps.revealMs;',
      'const revealBefore = new Date(deps.now().getTime() - deps.revealMs);',
      'OR (SELECT count(*) FROM ratings o WHERE o.exchange_id = e.id) = 2)',
      'const revealed = ratings.length === 2 || isPast;',
      "const HUMAN_KINDS = sql`('message', 'offer', 'offer_accepted', 'offer_declined')`;",
    ];
    for (const copy of replaced) expect(copiesIn(copy), copy).not.toEqual([]);
    const fine = [
      'if (sellerId === null || buyerId === null) throw conflict(M.deletedAccount);',
      "if (sellerId !== user.id) throw forbidden('You can only see your own listings here');",
      'LEFT JOIN users s ON s.id = c.seller_id LEFT JOIN users b ON b.id = c.buyer_id',
      'const role = roleOf(userId, { sellerId: row.seller_id, buyerId: row.buyer_id });',
      'export const revealDaysOf = ({ revealMs }) => Math.round(revealMs / DAY_MS);',
    ];
    for (const line of fine) expect(copiesIn(line), line).toEqual([]);
  });
});
