import { describe, expect, it } from 'vitest';
import { effectiveLogLevel, startLine } from './start-line';

describe('the start line in a terminal', () => {
  it('names the product and the address people open', () => {
    expect(startLine('http://localhost:3000')).toBe(
      'Campus Books is running at http://localhost:3000',
    );
    expect(startLine('https://books.richmond.edu')).toBe(
      'Campus Books is running at https://books.richmond.edu',
    );
  });

  it('replaces the info logs in a terminal unless LOG_LEVEL asks for them', () => {
    expect(effectiveLogLevel('info', {}, true)).toBe('warn');
    expect(effectiveLogLevel('info', { LOG_LEVEL: 'info' }, true)).toBe('info');
    expect(effectiveLogLevel('debug', { LOG_LEVEL: 'debug' }, true)).toBe('debug');
    expect(effectiveLogLevel('info', {}, false)).toBe('info');
  });
});
