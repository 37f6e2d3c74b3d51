import type { z } from 'zod';
import type { AccountRules } from './account.schemas';

/** What one route of the API takes and answers: the server declares it, the web app calls it. */
export interface ApiRouteContract {
  /** The path's `:name` parameters. */
  params?: z.ZodType;
  /** The query string. */
  query?: z.ZodType;
  /** The JSON body; a function of the campus's account rules where they shape it (sign-up). */
  body?: z.ZodType | ((rules: AccountRules) => z.ZodType);
  /**
   * The success answer: the schema every 2xx the route declares answers, or, where they differ, each
   * status's (a tus DELETE's 204 has no body).
   */
  response: z.ZodType | { readonly [status: number]: z.ZodType };
}
