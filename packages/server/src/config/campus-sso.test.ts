import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  campusConfigSchema,
  campusProblems,
  type CampusConfig,
} from '@campus-books/common/campus-config';
import { TEST_CAMPUS_FILE } from '../../test/use-default-campus';
import { readCampusFile } from './campus-file';
import { campusSignOn } from './campus-sso';
import { loadConfig } from './config';

const PUBLIC_URL = 'https://books.example.edu';

/** The test campus with this `sso` section, validated as a campus file is. */
function campusWith(sso: Record<string, unknown>): CampusConfig {
  return campusConfigSchema.parse({ ...readCampusFile(TEST_CAMPUS_FILE), sso });
}

const signOnOf = (
  sso: Record<string, unknown>,
  env: Record<string, string> = {},
  production = false,
) => campusSignOn(campusWith(sso), { production, publicUrl: PUBLIC_URL }, env);

// A campus file's `sso` section is read by the SSO_* settings' own rules, its problems named in
// the file's terms, its secret taken from the variable it names.
describe("a campus file's sso section", () => {
  it('gives the campus its provider, the secret read from the variable the file names', () => {
    const { sso, passwordSignUp, problems } = signOnOf(
      {
        protocol: 'oidc',
        admitAffiliations: ['Student@Example.edu'],
        attributeMap: { affiliation: 'groups' },
        passwordSignup: false,
        oidc: {
          issuer: 'https://login.example.edu/',
          clientId: 'books',
          clientSecretEnv: 'LAKESIDE_OIDC_SECRET',
        },
      },
      { LAKESIDE_OIDC_SECRET: 'the-secret' },
    );
    expect(problems).toEqual([]);
    expect(passwordSignUp).toBe(false);
    expect(sso).toMatchObject({
      protocol: 'oidc',
      name: readCampusFile(TEST_CAMPUS_FILE).name,
      admitAffiliations: ['student@example.edu'],
      oidc: {
        issuer: 'https://login.example.edu',
        clientId: 'books',
        clientSecret: 'the-secret',
        scopes: 'openid email profile',
      },
    });
    expect(sso!.attributes.affiliation).toEqual(['groups']);
  });

  it("defaults a SAML entity ID to the campus's address, and reads a CAS server", () => {
    const cas = signOnOf({ protocol: 'cas', name: 'Lakeside', cas: { baseUrl: 'https://c/cas' } });
    expect(cas.sso).toMatchObject({ name: 'Lakeside', cas: { baseUrl: 'https://c/cas' } });
    const folder = mkdtempSync(path.join(tmpdir(), 'cb-campus-sso-'));
    try {
      const certFile = path.join(folder, 'idp.pem');
      writeFileSync(certFile, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
      const saml = { idpSsoUrl: 'https://idp/sso', idpEntityId: 'idp', idpCertFile: certFile };
      expect(signOnOf({ protocol: 'saml', saml }).sso?.saml).toMatchObject({
        idpEntityId: 'idp',
        spEntityId: `${PUBLIC_URL}/api/sso/saml/metadata`,
      });
      // A relative path would be read from wherever each app server was started.
      const relative = signOnOf({ protocol: 'saml', saml: { ...saml, idpCertFile: 'idp.pem' } });
      expect(relative.sso).toBeNull();
      expect(relative.problems).toContain('sso.saml.idpCertFile: idp.pem is not an absolute path');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('names each problem by its field: an unset variable, a missing or plain-http address', () => {
    const { sso, problems } = signOnOf(
      {
        protocol: 'oidc',
        oidc: { issuer: 'http://login.example.edu', clientSecretEnv: 'NOT_SET' },
      },
      {},
      true,
    );
    expect(sso).toBeNull();
    expect(problems).toEqual([
      'sso.oidc.clientSecretEnv: the environment variable NOT_SET is not set (it holds the client secret)',
      'sso.oidc.issuer: must be an https:// URL',
      'sso.oidc.clientId: required with sso.protocol oidc',
    ]);
    expect(signOnOf({ protocol: 'cas' }).problems).toEqual([
      'sso.cas.baseUrl: required with this sso.protocol',
    ]);
  });

  it('gives a campus without a section no provider, its password sign-up open', () => {
    const campus = readCampusFile(TEST_CAMPUS_FILE);
    expect(campusSignOn(campus, { production: true, publicUrl: PUBLIC_URL })).toEqual({
      sso: null,
      passwordSignUp: true,
      problems: [],
    });
  });

  it("refuses another protocol's section, a secret written in the file, and a bad variable name", () => {
    const parsed = campusConfigSchema.safeParse({
      ...readCampusFile(TEST_CAMPUS_FILE),
      sso: {
        protocol: 'oidc',
        cas: { baseUrl: 'https://c/cas' },
        oidc: { clientSecret: 'written-here', clientSecretEnv: 'not a name' },
      },
    });
    expect(parsed.success).toBe(false);
    expect(campusProblems(parsed.error!)).toEqual(
      expect.arrayContaining([
        'sso.oidc: not a field of the campus file: "clientSecret"',
        'sso.oidc.clientSecretEnv: is the name of an environment variable (LAKESIDE_OIDC_SECRET)',
        'sso.cas: a section of protocol cas, but the protocol is oidc',
      ]),
    );
  });
});

// A single campus's file may name its provider too: SSO_PROTOCOL, when set, wins over it.
describe("the single campus's sso section", () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'cb-campus-sso-config-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const file = path.join(folder, 'campus.json');
  writeFileSync(
    file,
    JSON.stringify({
      ...readCampusFile(TEST_CAMPUS_FILE),
      sso: {
        protocol: 'oidc',
        name: 'Lakeside Sign-On',
        oidc: { issuer: 'https://login.example.edu', clientId: 'books', clientSecretEnv: 'SECRET' },
      },
    }),
  );
  const load = (env: Record<string, string>) =>
    loadConfig({ DATA_DIR: folder, CAMPUS_CONFIG: file, ...env });

  it('is its provider while SSO_PROTOCOL is unset, and off when SSO_PROTOCOL says off', () => {
    expect(load({ SECRET: 's' }).sso).toMatchObject({
      name: 'Lakeside Sign-On',
      oidc: { clientId: 'books', clientSecret: 's' },
    });
    expect(load({ SECRET: 's' }).campus).not.toHaveProperty('sso');
    expect(load({ SSO_PROTOCOL: 'off' }).sso).toBeNull();
  });

  it('stops the start naming the file and the variable that is not set', () => {
    expect(() => load({})).toThrow(
      `campus file ${file}: sso.oidc.clientSecretEnv: the environment variable SECRET is not set`,
    );
  });
});
