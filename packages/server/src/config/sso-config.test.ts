import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-sso-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig({ DATA_DIR: dataDir, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('single sign-on settings', () => {
  it('are off by default, with the password sign-up open', () => {
    expect(loadConfig({ DATA_DIR: dataDir })).toMatchObject({ sso: null, passwordSignUp: true });
  });

  it('read an OIDC provider, with the campus name and admitted affiliations', () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      SSO_PROTOCOL: 'oidc',
      OIDC_ISSUER: 'https://login.example.edu/',
      OIDC_CLIENT_ID: 'books',
      SSO_ADMIT_AFFILIATIONS: ' Student@Example.edu , faculty@example.edu',
      SSO_ATTRIBUTE_MAP: 'affiliation=groups',
    });
    expect(config.sso).toMatchObject({
      protocol: 'oidc',
      name: 'University of Richmond',
      admitAffiliations: ['student@example.edu', 'faculty@example.edu'],
      oidc: { issuer: 'https://login.example.edu', clientId: 'books', clientSecret: null },
    });
    expect(config.sso!.attributes.affiliation).toEqual(['groups']);
  });

  it('stop start-up naming every problem, beside the other settings', () => {
    const problems = problemsOf({
      NODE_ENV: 'production',
      PORT: 'many',
      SSO_PROTOCOL: 'oidc',
      OIDC_ISSUER: 'http://login.example.edu',
      OIDC_SCOPES: 'email profile',
      SSO_ATTRIBUTE_MAP: 'colour=blue',
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^PORT: /),
        'OIDC_ISSUER: must be an https:// URL',
        'OIDC_CLIENT_ID: required with SSO_PROTOCOL=oidc',
        'OIDC_SCOPES: must include openid',
        expect.stringMatching(/^SSO_ATTRIBUTE_MAP: "colour=blue" must be/),
      ]),
    );
  });

  it('refuse turning the password sign-up off with no sign-on to replace it', () => {
    expect(problemsOf({ PASSWORD_SIGNUP: 'off' })).toEqual([
      'PASSWORD_SIGNUP: off needs SSO_PROTOCOL, or no one could join',
    ]);
  });

  it('name what the SAML and CAS settings lack', () => {
    const certFile = path.join(dataDir, 'idp.pem');
    writeFileSync(certFile, 'not a certificate');
    expect(
      problemsOf({ SSO_PROTOCOL: 'saml', SAML_IDP_CERT_FILE: certFile, SAML_IDP_SSO_URL: 'x' }),
    ).toEqual([
      'SAML_IDP_SSO_URL: must be a URL',
      'SAML_IDP_ENTITY_ID: required with SSO_PROTOCOL=saml',
      `SAML_IDP_CERT_FILE: no PEM certificate in ${certFile}`,
    ]);
    expect(problemsOf({ SSO_PROTOCOL: 'cas' })).toEqual([
      'CAS_BASE_URL: required with this SSO_PROTOCOL',
    ]);
  });
});
