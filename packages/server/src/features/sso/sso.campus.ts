import type { FastifyBaseLogger } from 'fastify';
import {
  currentCampusSchema,
  currentCampusWork,
  runInCampus,
  type CampusWork,
} from '../../campuses/campus-context';
import { campusSignOn } from '../../config/campus-sso';
import type { SsoConfig } from '../../config/sso-config';
import { ConfigError, type Config } from '../../config/config';
import type { Database } from '../../db/database';
import type { Sessions } from '../../plugins/sessions';
import { createCas } from './cas';
import { createOidc } from './oidc';
import { createSaml } from './saml';
import type { SignOnDeps } from './sso.accounts';
import { ssoCookies } from './sso.state';

/** The sign-on of one campus: its settings, what its flows use, and its provider's client. */
export interface CampusSignOn {
  sso: SsoConfig;
  deps: SignOnDeps;
  oidc: ReturnType<typeof createOidc> | null;
  saml: ReturnType<typeof createSaml> | null;
  cas: ReturnType<typeof createCas> | null;
}

/**
 * What the campuses' sign-ons are made from (the app gives it): the configuration and database
 * facades, which answer as the request's campus, the sessions and the log.
 */
export interface SignOnSource {
  config: Config;
  database: Pick<Database, 'db'>;
  sessions: Pick<Sessions, 'start'>;
  log: FastifyBaseLogger;
}

/**
 * The sign-on of the request's campus (decision 024): `app.config.sso` answers the campus's
 * provider (its file's `sso` section; the SSO_* settings for the default campus), and each
 * campus's client is made on its first use there and kept (so OIDC discovery runs once per campus),
 * its addresses at the campus's publicUrl, its cookies signed with a key of its own. Null where the
 * campus has no provider.
 */
export function campusSignOns(app: SignOnSource): () => CampusSignOn | null {
  // Keyed by the campus's settings: one object per campus for as long as its file is the same.
  const kept = new WeakMap<SsoConfig, CampusSignOn>();
  const told = new WeakSet<object>();
  return () => {
    const { config } = app;
    const sso = config.sso;
    if (!sso) {
      tellUnusable(app, told);
      return null;
    }
    const known = kept.get(sso);
    if (known) return known;
    const { sessionSecret, secureCookies, schoolEmailDomain, publicUrl } = config;
    const cookies = ssoCookies({
      sessionSecret,
      secureCookies,
      protocol: sso.protocol,
      campus: currentCampusSchema(),
    });
    const deps: SignOnDeps = {
      db: app.database.db,
      sessions: app.sessions,
      cookies,
      sso,
      schoolEmailDomain,
      publicUrl,
    };
    const made: CampusSignOn = {
      sso,
      deps,
      oidc: sso.oidc ? createOidc(deps, sso.oidc) : null,
      saml: sso.saml ? createSaml(deps, sso.saml) : null,
      cas: sso.cas ? createCas(deps, sso.cas) : null,
    };
    kept.set(sso, made);
    return made;
  };
}

/**
 * A campus registered while this server runs is not checked at its start: when its `sso` section
 * cannot be used here (a variable unset on this server), it has no sign-on, and the log says why
 * once.
 */
function tellUnusable(app: SignOnSource, told: WeakSet<object>) {
  const work = currentCampusWork();
  if (!work?.config.sso || told.has(work.config)) return;
  told.add(work.config);
  const production = app.config.env === 'production';
  const { problems } = campusSignOn(work.config, { production, publicUrl: app.config.publicUrl });
  app.log.error({ campus: work.key, problems }, "the campus's sign-on provider cannot be used");
}

/**
 * Refuses to start when a campus's `sso` section cannot be used (a variable it names unset, an
 * address that is not https:// in production…), every problem named with its campus.
 */
export function checkCampusSignOns(
  app: Pick<SignOnSource, 'config'>,
  campuses: readonly CampusWork[],
): void {
  const problems = campuses.flatMap((campus) => {
    const publicUrl = runInCampus(campus, () => app.config.publicUrl);
    const production = app.config.env === 'production';
    return campusSignOn(campus.config, { production, publicUrl }).problems.map(
      (problem) => `campus ${campus.key}: ${problem}`,
    );
  });
  if (problems.length > 0) throw new ConfigError(problems);
}
