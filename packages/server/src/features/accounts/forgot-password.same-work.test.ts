import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database';
import { emailTokens } from '../../db/schema';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../../test/helpers';
import type { Mail } from '../../plugins/mail';
import type { AccountDeps } from './account-deps';
import { hashToken } from './email-tokens.repository';
import { requestPasswordReset } from './password-reset.service';

/** What a forgot-password request made the database do, and what it handed to the mailer. */
interface Work {
  /** Every use of the database, in order: the method and, for raw statements, their text. */
  calls: string[];
  /** The parameters of each raw statement (the token's hash among them). */
  params: unknown[][];
  mails: Mail[];
  /** The work the mailer was handed to do after the answer. */
  after: Promise<void>[];
}

const dialect = new PgDialect();

/**
 * The injected seam: the real database behind a proxy that writes down each use of it, and a
 * mailer that keeps what it was given. Timing is not measured (a benchmark's job); the work is
 * counted, and must be the same for an address with an account and one without (decision 002).
 */
function recordingDeps(db: Db): { deps: AccountDeps; work: Work } {
  const work: Work = { calls: [], params: [], mails: [], after: [] };
  const recorded = new Proxy(db, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (key === 'execute') {
          const query = dialect.sqlToQuery(args[0] as SQL);
          work.calls.push(`execute ${query.sql.replace(/\s+/g, ' ')}`);
          work.params.push(query.params);
        } else {
          work.calls.push(String(key));
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return {
    work,
    deps: {
      db: recorded,
      mailer: {
        sendInBackground: (mail) => void work.mails.push(mail),
        // As the app's mailer does (plugins/mail.test.ts): the work starts after the caller's turn.
        composeInBackground: (compose) =>
          void work.after.push(
            new Promise((resolve) => setImmediate(resolve)).then(compose).then((mail) => {
              if (mail) work.mails.push(mail);
            }),
          ),
      },
      sessions: { endAllForUser: async () => {} },
      publicUrl: 'http://localhost:3000',
    },
  };
}

describe(`forgot-password does the same work for a known and an unknown address (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('nothing before the answer; after it, one identical statement with a fresh token hash either way; only a real account gets a row and a mail', async () => {
    const user = await createUser(t);
    const known = recordingDeps(t.database.db);
    requestPasswordReset(known.deps, user.email.toUpperCase());
    const unknown = recordingDeps(t.database.db);
    requestPasswordReset(unknown.deps, `nobody.${Date.now()}@richmond.edu`);
    // When the route answers, nothing about either address has been asked of the database.
    expect(known.work.calls).toEqual([]);
    expect(unknown.work.calls).toEqual([]);
    expect(known.work.after).toHaveLength(1);
    expect(unknown.work.after).toHaveLength(1);
    await Promise.all([...known.work.after, ...unknown.work.after]);

    expect(known.work.calls).toHaveLength(1);
    expect(unknown.work.calls).toEqual(known.work.calls);
    // A token is made and hashed in both: the statement carries a SHA-256 hash, a new one each time.
    const hashOf = (work: Work) => work.params[0]![0];
    expect(hashOf(known.work)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashOf(unknown.work)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashOf(unknown.work)).not.toBe(hashOf(known.work));

    // What differs happens after the answer: whether the one statement's SELECT found an account to
    // write a row for, and so whether there is a mail.
    expect(unknown.work.mails).toEqual([]);
    expect(known.work.mails).toHaveLength(1);
    const link = /reset-password\/([\w-]+)/.exec(known.work.mails[0]!.text)?.[1];
    const [row] = await t.database.db
      .select()
      .from(emailTokens)
      .where(eq(emailTokens.tokenHash, hashToken(link!)));
    expect(row).toMatchObject({ userId: user.id, purpose: 'reset_password', email: user.email });
    expect(hashOf(known.work)).toBe(row!.tokenHash);
  });
});
