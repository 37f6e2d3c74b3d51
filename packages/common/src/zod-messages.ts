import { z } from 'zod';
import { MESSAGES } from './messages';

type Issue = Parameters<NonNullable<z.core.$ZodConfig['customError']>>[0];

function bound(issue: Issue, word: 'most' | 'least'): string {
  const limit = Number(
    (issue as { maximum?: unknown; minimum?: unknown })[word === 'most' ? 'maximum' : 'minimum'],
  );
  switch ((issue as { origin?: string }).origin) {
    case 'string':
      return `Must be at ${word} ${limit.toLocaleString('en-US')} characters`;
    case 'array':
    case 'set':
      return `Must have at ${word} ${limit.toLocaleString('en-US')} items`;
    default:
      return `Must be at ${word} ${limit.toLocaleString('en-US')}`;
  }
}

/**
 * Written copy for any rule a schema left without its own message, so a person never reads the
 * validator's default wording. Every schema in this package names its rules' messages; this is the
 * safety net, installed once by the schema modules for the server and the web app alike.
 */
export function writtenMessage(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined || issue.input === null
        ? 'This field is required'
        : 'This value has the wrong kind (for example text where a number belongs)';
    case 'too_big':
      return bound(issue, 'most');
    case 'too_small':
      return bound(issue, 'least');
    case 'invalid_value':
      return 'Choose one of the listed options';
    case 'invalid_format':
      return 'This value is not in the right format';
    case 'not_multiple_of':
      return 'This number has too many decimals';
    case 'unrecognized_keys':
      return 'This field is not one we accept';
    default:
      return MESSAGES.invalidValue;
  }
}

z.config({ customError: writtenMessage });
