import { activeCampus } from '@campus-books/common/active-campus';

/**
 * What a person starting the server in a terminal reads once it listens. A terminal gets this line
 * (and warnings and errors) instead of the JSON log lines, which stay for production and for any
 * output that is not a terminal (a log collector, a test's pipe).
 */
export function startLine(publicUrl: string): string {
  return `${activeCampus().productName} is running at ${publicUrl}`;
}

/**
 * The log level: LOG_LEVEL when it is set; else in a terminal only warnings and errors (the start
 * line says the rest), and `info` otherwise.
 */
export function effectiveLogLevel(
  configured: string,
  env: Record<string, string | undefined>,
  isTerminal: boolean,
): string {
  if (env.LOG_LEVEL !== undefined || !isTerminal) return configured;
  return 'warn';
}
