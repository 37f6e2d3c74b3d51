import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, users } from './schema';

/** A user's identity at the campus's sign-on provider (issue 30): who (provider, subject) is. */
export const ssoIdentities = pgTable(
  'sso_identities',
  {
    /** `oidc:<issuer>`, `saml:<IdP entity id>` or `cas:<base URL>`. */
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.subject] }),
    index('sso_identities_user_id_idx').on(t.userId),
  ],
);

/**
 * What sign-on uses once, shared by every app server: OIDC states, SAML request and assertion ids,
 * CAS tickets, finished sign-ups. A key is claimed by inserting it; a second insert finds it.
 */
export const ssoOnce = pgTable(
  'sso_once',
  {
    key: text('key').primaryKey(),
    value: text('value'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sso_once_expires_at_idx').on(t.expiresAt)],
);
