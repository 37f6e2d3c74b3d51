import { alertInputSchema } from '@campus-books/common/alert.schemas';
import type { ResolverOptions } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { bodyResolver } from './body-resolver';

interface Values {
  searchTerm: string;
  maxPrice: string;
}
const resolver = bodyResolver(
  alertInputSchema,
  (values: Values) => ({
    ...values,
    maxPrice: values.maxPrice === '' ? null : Number(values.maxPrice),
  }),
  ['searchTerm', 'maxPrice'],
);
const options: ResolverOptions<Values> = { fields: {}, shouldUseNativeValidation: undefined };

describe('bodyResolver', () => {
  it('answers the schema’s output for the body the values make', async () => {
    const result = await resolver(
      { searchTerm: ' Calculus ', maxPrice: '12.5' },
      undefined,
      options,
    );
    expect(result.errors).toEqual({});
    expect(result.values).toMatchObject({ searchTerm: 'Calculus', maxPrice: 12.5, paused: false });
  });

  it('shows a problem under its field, and a rule about the whole body as the form’s error', async () => {
    const priced = await resolver({ searchTerm: 'Calculus', maxPrice: '-1' }, undefined, options);
    expect(priced.errors).toEqual({
      maxPrice: { type: 'too_small', message: expect.stringContaining('maximum price') },
    });
    const empty = await resolver({ searchTerm: '', maxPrice: '' }, undefined, options);
    expect(empty.errors).toEqual({
      root: { type: 'custom', message: expect.stringContaining('Choose what to look for') },
    });
  });
});
