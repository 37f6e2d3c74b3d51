import { z } from 'zod';

/**
 * A campus file's `sso` section: the campus's own sign-on provider in a many-campus installation
 * (docs/sso.md, "Many campuses"). Its shape only: the server checks it as it checks the SSO_*
 * settings (addresses, required fields, the certificate file, the secret's variable), mapping each
 * field to the setting it stands for (server/src/config/campus-sso.ts). No secret is written here:
 * a client secret is named by the environment variable that holds it.
 */

const value = (max: number) => z.string().trim().min(1).max(max);

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** One attribute's (SAML, CAS) or claim's (OIDC) name: no ",", "=" or space. */
const attributeName = value(300).regex(/^[^,=\s]+$/, 'holds no ",", "=" or space');

export const campusSsoSchema = z
  .object({
    protocol: z
      .enum(['oidc', 'saml', 'cas'])
      .describe('The protocol of the campus provider; its section (oidc, saml or cas) says more.'),
    name: value(120)
      .optional()
      .describe("The name on the sign-on button (Sign in with …); the campus's name when omitted."),
    admitAffiliations: z
      .array(value(200).toLowerCase())
      .max(50)
      .default([])
      .describe('The affiliations admitted (student@example.edu); empty admits everyone.'),
    attributeMap: z
      .object({
        email: attributeName.optional(),
        givenName: attributeName.optional(),
        familyName: attributeName.optional(),
        subject: attributeName.optional(),
        affiliation: attributeName.optional(),
      })
      .strict()
      .optional()
      .describe("Another attribute or claim to read a part from; InCommon's names otherwise."),
    passwordSignup: z
      .boolean()
      .default(true)
      .describe('false closes the school e-mail sign-up on this campus (SSO only).'),
    oidc: z
      .object({
        issuer: value(500).optional().describe('The OpenID provider (https://…).'),
        clientId: value(300).optional().describe("This campus's client at the provider."),
        clientSecretEnv: z
          .string()
          .regex(ENV_NAME, 'is the name of an environment variable (LAKESIDE_OIDC_SECRET)')
          .optional()
          .describe(
            "The environment variable holding that client's secret (never the secret itself).",
          ),
        scopes: value(300).optional().describe('The scopes asked for; openid email profile.'),
      })
      .strict()
      .optional(),
    saml: z
      .object({
        idpSsoUrl: value(500).optional().describe("The IdP's HTTP-Redirect SSO endpoint."),
        idpEntityId: value(500).optional().describe("The IdP's entity ID."),
        idpCertFile: value(500)
          .optional()
          .describe("An absolute path to a PEM file of the IdP's signing certificates."),
        idpLogoutUrl: value(500).optional(),
        spEntityId: value(500)
          .optional()
          .describe("This campus's entity ID; its publicUrl/api/sso/saml/metadata when omitted."),
        clockSkewSeconds: z.number().int().min(0).max(300).optional(),
      })
      .strict()
      .optional(),
    cas: z
      .object({ baseUrl: value(500).optional().describe('The CAS server (https://…/cas).') })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((sso, ctx) => {
    for (const other of (['oidc', 'saml', 'cas'] as const).filter((p) => p !== sso.protocol)) {
      if (sso[other] !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [other],
          message: `a section of protocol ${other}, but the protocol is ${sso.protocol}`,
        });
      }
    }
  });

export type CampusSso = z.output<typeof campusSsoSchema>;
