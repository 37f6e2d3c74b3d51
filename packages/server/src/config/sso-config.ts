import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * Single sign-on (issue 30, docs/sso.md): one protocol per deployment, read from the environment
 * beside the rest of the configuration; every problem is listed with the others at start-up.
 */
export type SsoProtocol = 'oidc' | 'saml' | 'cas';

/** Which attribute (SAML, CAS) or claim (OIDC) carries each part of the identity. */
export interface AttributeMap {
  email: string[];
  givenName: string[];
  familyName: string[];
  subject: string[];
  affiliation: string[];
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  scopes: string;
}

export interface SamlConfig {
  idpSsoUrl: string;
  idpEntityId: string;
  /** PEM certificates the IdP signs with (several during a rollover). */
  idpCerts: string[];
  idpLogoutUrl: string | null;
  spEntityId: string;
  clockSkewMs: number;
}

export interface CasConfig {
  baseUrl: string;
}

export interface SsoConfig {
  protocol: SsoProtocol;
  /** "Sign in with <name>": the campus name. */
  name: string;
  /** Affiliations admitted (lower-case, e.g. student@richmond.edu); empty admits everyone. */
  admitAffiliations: string[];
  attributes: AttributeMap;
  /** Provider URLs may be http:// (tests, development); never in production. */
  oidc: OidcConfig | null;
  saml: SamlConfig | null;
  cas: CasConfig | null;
}

const text = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

/** The sign-on settings (docs/sso.md explains them to a campus's IT office). */
export const ssoSettings = z.object({
  SSO_PROTOCOL: z
    .enum(['off', 'oidc', 'saml', 'cas'])
    .default('off')
    .describe(
      "Any but `off`: `Sign in with <campus>` leads the sign-in and sign-up pages (docs/sso.md). Unset, the campus file's `sso` section names the provider, if it has one.",
    ),
  SSO_NAME: text.meta({
    unset: "the campus file's `name`",
    description: 'The name on the sign-on button.',
  }),
  SSO_ADMIT_AFFILIATIONS: z.string().default('').meta({
    unset: 'everyone the provider signs in',
    description:
      'Comma-separated affiliations admitted, e.g. `student@richmond.edu` (`eduPersonScopedAffiliation`).',
  }),
  SSO_ATTRIBUTE_MAP: z.string().default('').meta({
    unset: "InCommon's names (docs/sso.md)",
    description:
      '`part=name,…` to read a part (email, givenName, familyName, subject, affiliation) from another attribute or claim.',
  }),
  PASSWORD_SIGNUP: z
    .enum(['on', 'off'])
    .default('on')
    .describe(
      '`off` closes the school e-mail sign-up (needs `SSO_PROTOCOL`); existing passwords still work.',
    ),
  OIDC_ISSUER: text.meta({
    unset: 'none',
    accepts: '`https://…` URL (`http://…` outside production)',
    description:
      'The OpenID provider (discovery from `$OIDC_ISSUER/.well-known/openid-configuration`); redirect URI `$PUBLIC_URL/api/sso/oidc/callback`.',
  }),
  OIDC_CLIENT_ID: text.meta({ unset: 'none', description: "This app's client at the provider." }),
  OIDC_CLIENT_SECRET: text.meta({ unset: 'none', description: "That client's secret." }),
  OIDC_SCOPES: z.string().trim().default('openid email profile').describe('The scopes asked for.'),
  SAML_IDP_SSO_URL: text.meta({
    unset: 'none',
    accepts: '`https://…` URL (`http://…` outside production)',
    description: "The identity provider's HTTP-Redirect SSO endpoint.",
  }),
  SAML_IDP_ENTITY_ID: text.meta({
    unset: 'none',
    description: "The identity provider's entity ID: the issuer its assertions must carry.",
  }),
  SAML_IDP_CERT_FILE: text.meta({
    unset: 'none',
    accepts: 'a file path',
    description:
      "A PEM file of the identity provider's signing certificates (several during a rollover).",
  }),
  SAML_IDP_LOGOUT_URL: text.meta({
    unset: 'no link',
    accepts: '`https://…` URL (`http://…` outside production)',
    description: 'The "Sign out of … too" link offered after sign-out.',
  }),
  SAML_SP_ENTITY_ID: text.meta({
    unset: '`$PUBLIC_URL/api/sso/saml/metadata`',
    description: "This app's entity ID as a service provider.",
  }),
  SAML_CLOCK_SKEW_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(300)
    .default(60)
    .describe("The skew allowed on an assertion's NotBefore and NotOnOrAfter."),
  CAS_BASE_URL: text.meta({
    unset: 'none',
    accepts: '`https://…` URL (`http://…` outside production)',
    description:
      'The CAS server, e.g. `https://cas.example.edu/cas` (`/login`, `/p3/serviceValidate`, `/logout` under it).',
  }),
});

// SAML attributes by their URI names (what InCommon's R&S category releases) and friendly names;
// OIDC claims by the standard names and the REFEDS eduPerson claim.
const DEFAULT_ATTRIBUTES: AttributeMap = {
  email: ['urn:oid:0.9.2342.19200300.100.1.3', 'mail', 'email'],
  givenName: ['urn:oid:2.5.4.42', 'givenName', 'given_name'],
  familyName: ['urn:oid:2.5.4.4', 'sn', 'family_name'],
  subject: ['urn:oid:1.3.6.1.4.1.5923.1.1.1.6', 'eduPersonPrincipalName', 'sub'],
  affiliation: [
    'urn:oid:1.3.6.1.4.1.5923.1.1.1.9',
    'eduPersonScopedAffiliation',
    'eduperson_scoped_affiliation',
  ],
};

/** `email=urn:oid:…,affiliation=groups`: a name replaces that part's default list. */
function parseAttributeMap(value: string, problems: string[]): AttributeMap {
  const map = { ...DEFAULT_ATTRIBUTES };
  for (const pair of value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [key, name] = pair.split('=').map((p) => p.trim());
    if (!key || !name || !(key in map)) {
      problems.push(
        `SSO_ATTRIBUTE_MAP: "${pair}" must be part=name with part one of ${Object.keys(map).join(', ')}`,
      );
      continue;
    }
    map[key as keyof AttributeMap] = [name];
  }
  return map;
}

function providerUrl(
  name: string,
  value: string | undefined,
  production: boolean,
  problems: string[],
): string | undefined {
  if (!value) {
    problems.push(`${name}: required with this SSO_PROTOCOL`);
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problems.push(`${name}: must be a URL`);
    return undefined;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && !production)) {
    problems.push(`${name}: must be an https:// URL`);
    return undefined;
  }
  return value.replace(/\/+$/, '');
}

function readCerts(file: string | undefined, problems: string[]): string[] {
  if (!file) {
    problems.push('SAML_IDP_CERT_FILE: required with SSO_PROTOCOL=saml');
    return [];
  }
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch {
    problems.push(`SAML_IDP_CERT_FILE: cannot read ${file}`);
    return [];
  }
  const certs = pem.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? [];
  if (certs.length === 0) problems.push(`SAML_IDP_CERT_FILE: no PEM certificate in ${file}`);
  return certs;
}

/** The SSO part of the configuration; problems are added to `problems`, not thrown. */
export function readSsoConfig(
  source: NodeJS.ProcessEnv,
  options: { production: boolean; publicUrl: string },
  problems: string[],
): { sso: SsoConfig | null; passwordSignUp: boolean } {
  const parsed = ssoSettings.safeParse(source);
  if (!parsed.success) {
    for (const i of parsed.error.issues) problems.push(`${i.path.join('.')}: ${i.message}`);
    return { sso: null, passwordSignUp: true };
  }
  const env = parsed.data;
  const passwordSignUp = env.PASSWORD_SIGNUP === 'on';
  if (env.SSO_PROTOCOL === 'off') {
    if (!passwordSignUp) {
      problems.push('PASSWORD_SIGNUP: off needs SSO_PROTOCOL, or no one could join');
    }
    return { sso: null, passwordSignUp };
  }
  const { production } = options;
  const url = (name: keyof typeof env) =>
    providerUrl(name, env[name] as string | undefined, production, problems);
  const sso: SsoConfig = {
    protocol: env.SSO_PROTOCOL,
    name: env.SSO_NAME ?? '',
    admitAffiliations: env.SSO_ADMIT_AFFILIATIONS.split(',')
      .map((a) => a.trim().toLowerCase())
      .filter(Boolean),
    attributes: parseAttributeMap(env.SSO_ATTRIBUTE_MAP, problems),
    oidc: null,
    saml: null,
    cas: null,
  };
  if (env.SSO_PROTOCOL === 'oidc') {
    const issuer = url('OIDC_ISSUER');
    if (!env.OIDC_CLIENT_ID) problems.push('OIDC_CLIENT_ID: required with SSO_PROTOCOL=oidc');
    if (!env.OIDC_SCOPES.split(/\s+/).includes('openid')) {
      problems.push('OIDC_SCOPES: must include openid');
    }
    sso.oidc = {
      issuer: issuer ?? '',
      clientId: env.OIDC_CLIENT_ID ?? '',
      clientSecret: env.OIDC_CLIENT_SECRET ?? null,
      scopes: env.OIDC_SCOPES,
    };
  }
  if (env.SSO_PROTOCOL === 'saml') {
    const idpSsoUrl = url('SAML_IDP_SSO_URL');
    if (!env.SAML_IDP_ENTITY_ID)
      problems.push('SAML_IDP_ENTITY_ID: required with SSO_PROTOCOL=saml');
    const idpLogoutUrl = env.SAML_IDP_LOGOUT_URL ? url('SAML_IDP_LOGOUT_URL') : undefined;
    sso.saml = {
      idpSsoUrl: idpSsoUrl ?? '',
      idpEntityId: env.SAML_IDP_ENTITY_ID ?? '',
      idpCerts: readCerts(env.SAML_IDP_CERT_FILE, problems),
      idpLogoutUrl: idpLogoutUrl ?? null,
      spEntityId: env.SAML_SP_ENTITY_ID ?? `${options.publicUrl}/api/sso/saml/metadata`,
      clockSkewMs: env.SAML_CLOCK_SKEW_SECONDS * 1000,
    };
  } else if (env.SSO_PROTOCOL === 'cas') {
    sso.cas = { baseUrl: url('CAS_BASE_URL') ?? '' };
  }
  return { sso, passwordSignUp };
}
