import path from 'node:path';
import type { CampusConfig } from '@campus-books/common/campus-config';
import type { CampusSso } from '@campus-books/common/campus-sso';
import { CampusConfigError } from './campus-file';
import { readSsoConfig, type SsoConfig } from './sso-config';

/**
 * A campus file's `sso` section (common/campus-sso.ts) read by the rules of the SSO_* settings: the
 * section is written as the settings it stands for and read by `readSsoConfig`, so a campus's
 * provider is checked exactly as the process's is (an https:// address in production, the required
 * fields, the certificate file), and each problem names the campus file's field.
 */

/** The campus file's field each setting stands for, in the problems. */
const FIELD_OF_SETTING: Record<string, string> = {
  SSO_PROTOCOL: 'sso.protocol',
  SSO_NAME: 'sso.name',
  SSO_ADMIT_AFFILIATIONS: 'sso.admitAffiliations',
  SSO_ATTRIBUTE_MAP: 'sso.attributeMap',
  PASSWORD_SIGNUP: 'sso.passwordSignup',
  OIDC_ISSUER: 'sso.oidc.issuer',
  OIDC_CLIENT_ID: 'sso.oidc.clientId',
  OIDC_CLIENT_SECRET: 'sso.oidc.clientSecretEnv',
  OIDC_SCOPES: 'sso.oidc.scopes',
  SAML_IDP_SSO_URL: 'sso.saml.idpSsoUrl',
  SAML_IDP_ENTITY_ID: 'sso.saml.idpEntityId',
  SAML_IDP_CERT_FILE: 'sso.saml.idpCertFile',
  SAML_IDP_LOGOUT_URL: 'sso.saml.idpLogoutUrl',
  SAML_SP_ENTITY_ID: 'sso.saml.spEntityId',
  SAML_CLOCK_SKEW_SECONDS: 'sso.saml.clockSkewSeconds',
  CAS_BASE_URL: 'sso.cas.baseUrl',
};
const SETTING = new RegExp(`\\b(${Object.keys(FIELD_OF_SETTING).join('|')})\\b(=\\w+)?`, 'g');

/** A problem of the settings, in the campus file's words ("sso.oidc.issuer: must be a URL"). */
const inFileTerms = (problem: string) =>
  problem.replace(SETTING, (_all, name: string, is: string | undefined) =>
    is ? `${FIELD_OF_SETTING[name]} ${is.slice(1)}` : FIELD_OF_SETTING[name]!,
  );

/** The section as the settings it stands for; the client secret read from the variable it names. */
function settingsOf(
  sso: CampusSso,
  env: NodeJS.ProcessEnv,
  problems: string[],
): Record<string, string | undefined> {
  const { oidc, saml, cas } = sso;
  const secretEnv = oidc?.clientSecretEnv;
  const secret = secretEnv ? env[secretEnv]?.trim() : undefined;
  if (secretEnv && !secret) {
    problems.push(
      `sso.oidc.clientSecretEnv: the environment variable ${secretEnv} is not set (it holds the client secret)`,
    );
  }
  const certFile = saml?.idpCertFile;
  if (certFile && !path.isAbsolute(certFile)) {
    problems.push(`sso.saml.idpCertFile: ${certFile} is not an absolute path`);
  }
  const attributeMap = Object.entries(sso.attributeMap ?? {})
    .filter(([, name]) => name !== undefined)
    .map(([part, name]) => `${part}=${name}`)
    .join(',');
  return {
    SSO_PROTOCOL: sso.protocol,
    SSO_NAME: sso.name,
    SSO_ADMIT_AFFILIATIONS: sso.admitAffiliations.join(','),
    SSO_ATTRIBUTE_MAP: attributeMap,
    PASSWORD_SIGNUP: sso.passwordSignup ? 'on' : 'off',
    OIDC_ISSUER: oidc?.issuer,
    OIDC_CLIENT_ID: oidc?.clientId,
    OIDC_CLIENT_SECRET: secret,
    OIDC_SCOPES: oidc?.scopes,
    SAML_IDP_SSO_URL: saml?.idpSsoUrl,
    SAML_IDP_ENTITY_ID: saml?.idpEntityId,
    SAML_IDP_CERT_FILE: certFile && path.isAbsolute(certFile) ? certFile : undefined,
    SAML_IDP_LOGOUT_URL: saml?.idpLogoutUrl,
    SAML_SP_ENTITY_ID: saml?.spEntityId,
    SAML_CLOCK_SKEW_SECONDS: saml?.clockSkewSeconds?.toString(),
    CAS_BASE_URL: cas?.baseUrl,
  };
}

/** A campus's sign-on: its provider (null without an `sso` section) and whether passwords sign up. */
export interface CampusSignOn {
  sso: SsoConfig | null;
  passwordSignUp: boolean;
  /** What is wrong with the section, one line each in the file's terms; empty when usable. */
  problems: string[];
}

/**
 * The sign-on of a campus of the directory, from its file's `sso` section: none without one (its
 * students sign up with their school address), its provider's redirect and callback addresses at
 * the campus's `publicUrl`. A section with problems gives no provider.
 */
export function campusSignOn(
  campus: CampusConfig,
  options: { production: boolean; publicUrl: string },
  env: NodeJS.ProcessEnv = process.env,
): CampusSignOn {
  if (!campus.sso) return { sso: null, passwordSignUp: true, problems: [] };
  const problems: string[] = [];
  const settings = settingsOf(campus.sso, env, problems);
  const settingsProblems: string[] = [];
  const { sso, passwordSignUp } = readSsoConfig(settings, options, settingsProblems);
  problems.push(...settingsProblems.map(inFileTerms));
  if (problems.length > 0 || !sso) return { sso: null, passwordSignUp: true, problems };
  return { sso: { ...sso, name: sso.name || campus.name }, passwordSignUp, problems };
}

/**
 * A campus file's `sso` section checked as the server checks it at start (`npm run campus -- add`,
 * `check`): every problem, the file named; `env` holds the variables it names.
 */
export function checkCampusSso(campus: CampusConfig, file: string, env: NodeJS.ProcessEnv): void {
  const production = env.NODE_ENV === 'production';
  // The address only names the SAML entity ID by default: it cannot be wrong here.
  const publicUrl = campus.publicUrl ?? 'https://campus.invalid';
  const { problems } = campusSignOn(campus, { production, publicUrl }, env);
  if (problems.length > 0) throw new CampusConfigError(file, problems);
}
