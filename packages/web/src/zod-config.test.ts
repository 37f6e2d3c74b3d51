import { describe, expect, it } from 'vitest';

describe('the zod setting made before any schema parses', () => {
  it('is the one zod reads: its parsers run without new Function', async () => {
    await import('./zod-config');
    const { z } = await import('zod');
    expect(z.config().jitless).toBe(true);
    // And a schema built afterwards parses with the setting on.
    expect(z.object({ a: z.string() }).parse({ a: 'x' })).toEqual({ a: 'x' });
  });
});
