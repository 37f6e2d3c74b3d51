import type { ApiErrorBody } from '@campus-books/common/api';

/** The one error type of the server: a status and a message safe to show the user. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: { field: string; message: string }[],
    /** More fields of the answer, e.g. `challengeRequired: true` on a 429 (features/accounts). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message = 'Please sign in to continue') => new AppError(401, message);
export const forbidden = (message = 'You are not allowed to do that') => new AppError(403, message);
export const notFound = (message = 'Not found') => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);

/** The body of every failed request: `{success:false, statusCode, message}` and any more fields. */
export function errorBody(
  statusCode: number,
  message: string,
  more: Partial<Omit<ApiErrorBody, 'success' | 'statusCode' | 'message'>> &
    Record<string, unknown> = {},
): ApiErrorBody {
  return { success: false, statusCode, message, ...more };
}
