import { z } from 'zod';

/**
 * The schemas the OpenAPI document names (components/schemas): a schema registered here with an id
 * is written once and referenced by every route that answers it.
 */
export const apiSchemas = z.registry<{ id: string; description?: string }>();

/** The one error shape every failing API call answers with. */
export const apiErrorSchema = z
  .object({
    success: z.literal(false),
    statusCode: z.number().int(),
    message: z.string().describe('A sentence safe to show the user'),
    errors: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .optional()
      .describe('Per-field messages for validation errors (400)'),
    challengeRequired: z
      .literal(true)
      .optional()
      .describe(
        'On a 429 of sign-in or sign-up: solve GET /api/auth/challenge and send it as `altcha`',
      ),
  })
  .register(apiSchemas, { id: 'ApiError' });
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

/** Answer of calls that only confirm (sign-up, sign-out, delete, …). */
export const apiMessageSchema = z
  .object({ success: z.literal(true), message: z.string() })
  .register(apiSchemas, { id: 'ApiMessage' });
export type ApiMessage = z.infer<typeof apiMessageSchema>;

/** GET /api/config: what the web app needs to validate like the server. */
export const publicConfigSchema = z.object({
  schoolEmailDomain: z.string().nullable(),
  /** The school domains of the campuses this one shares with: their students may sign up here too. */
  partnerEmailDomains: z.array(z.string()).optional(),
  groupmeLinkPrefix: z.string(),
  donationUrl: z.string().nullable(),
  publicUrl: z.string(),
  /** Single sign-on: "Sign in with <name>" leads the sign-in and sign-up pages (issue 30). */
  sso: z.object({ name: z.string(), protocol: z.enum(['oidc', 'saml', 'cas']) }).nullable(),
  /** Whether the school e-mail sign-up with a password is open (off: sign-on only). */
  passwordSignUp: z.boolean(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

/** An ISO 8601 date-time string, as every date of the API is written. */
export const dateTimeSchema = z.string().meta({ format: 'date-time' });

/** `{success: true, ...fields}`: how most answers wrap their object. */
export const succeeded = <Shape extends z.ZodRawShape>(shape: Shape) =>
  z.object({ success: z.literal(true), ...shape });

/**
 * The documented 4xx answers of a route, each in the error shape, with why it happens. (The error
 * handler sends them as application/json, the media type they are keyed by.)
 */
export function errorResponses<Code extends number>(reasons: Record<Code, string>) {
  const responses = {} as Record<
    Code,
    { description: string; content: { 'application/json': { schema: typeof apiErrorSchema } } }
  >;
  for (const [code, description] of Object.entries(reasons) as unknown as [Code, string][]) {
    responses[code] = { description, content: { 'application/json': { schema: apiErrorSchema } } };
  }
  return responses;
}
