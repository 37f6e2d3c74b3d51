import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database';
import type { Mailer } from '../../plugins/mail';
import type { Sessions } from '../../plugins/sessions';

/**
 * What the sign-up, verification and password-reset flows use: the database, the mailer (their
 * links, sent without making the request wait), the sessions a new password ends, and the links'
 * base address.
 */
export interface AccountDeps {
  db: Db;
  mailer: Pick<Mailer, 'sendInBackground' | 'composeInBackground'>;
  sessions: Pick<Sessions, 'endAllForUser'>;
  publicUrl: string;
}

/** The flows' dependencies, from the app that serves them (built once, with the routes). */
export function accountDeps(app: FastifyInstance): AccountDeps {
  return {
    db: app.database.db,
    mailer: app.mailer,
    sessions: app.sessions,
    // Read at each use: the request's campus's address (decision 024).
    get publicUrl() {
      return app.config.publicUrl;
    },
  };
}
