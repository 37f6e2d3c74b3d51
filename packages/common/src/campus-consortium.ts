import { z } from 'zod';

/**
 * Consortium sharing between the campuses of one installation (issue 45, decision 024): two
 * campuses whose files each name the other show each other's active listings in their searches,
 * marked with the campus, and admit each other's students at sign-up. One side naming the other
 * shares nothing.
 */

/** A campus key (its schema and role are `campus_<key>`): lower-case letters, digits and `_`. */
export const CAMPUS_KEY = /^[a-z][a-z0-9_]{0,39}$/;

/** The campus file's `consortium` section. */
export const campusConsortiumSchema = z
  .object({
    share: z
      .array(
        z
          .string()
          .regex(
            CAMPUS_KEY,
            'a campus key is lower-case letters, digits and _, starting with a letter (at most 40)',
          ),
      )
      .max(100)
      .default([])
      .superRefine((keys, ctx) => {
        const seen = new Set<string>();
        keys.forEach((key, index) => {
          if (seen.has(key))
            ctx.addIssue({ code: 'custom', path: [index], message: `"${key}" is listed twice` });
          seen.add(key);
        });
      })
      .describe(
        "Keys of the campuses of this installation this campus agrees to share with: two campuses share (listings in each other's search, students admitted at sign-up) only when each names the other.",
      ),
  })
  .strict();

/** What the sharing rule reads of a campus: its key and its file's consortium section. */
export interface ConsortiumMember {
  key: string;
  config: { consortium?: { share: readonly string[] } };
}

/** Whether `a` and `b` share: each names the other (opt-in on both sides), and they differ. */
export function isSharing(a: ConsortiumMember, b: ConsortiumMember): boolean {
  return (
    a.key !== b.key &&
    (a.config.consortium?.share.includes(b.key) ?? false) &&
    (b.config.consortium?.share.includes(a.key) ?? false)
  );
}

/** The campuses `campus` shares with, in the order of `all`. */
export function sharingPartners<T extends ConsortiumMember>(campus: T, all: readonly T[]): T[] {
  return all.filter((other) => isSharing(campus, other));
}

/**
 * What is wrong or one-sided in the installation's consortium: one line per key a campus names that
 * no campus has, per campus that names itself, and per campus named by one side only (it shares
 * nothing until the other names it back).
 */
export function consortiumProblems(all: readonly ConsortiumMember[]): string[] {
  const problems: string[] = [];
  for (const campus of all) {
    for (const named of campus.config.consortium?.share ?? []) {
      const other = all.find((c) => c.key === named);
      if (named === campus.key)
        problems.push(`campus "${campus.key}" names itself in consortium.share`);
      else if (!other)
        problems.push(`campus "${campus.key}" shares with "${named}", which is no campus here`);
      else if (!isSharing(campus, other))
        problems.push(
          `campus "${campus.key}" shares with "${named}", which does not share back: nothing is shared until it names "${campus.key}"`,
        );
    }
  }
  return problems;
}
