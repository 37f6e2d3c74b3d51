import { z } from 'zod';
import { listingSchema } from '@campus-books/common/listing.schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, TEST_ENGINE, type TestApp } from '../../test/helpers';
import { insertListings } from '../../test/listing-fixtures';
import { answerSerializerCompiler, serializedByFields } from './answer-serializers';

const compile = (schema: z.ZodType) =>
  answerSerializerCompiler({ schema, method: 'GET', url: '/x', httpStatus: '200' });

describe('answers serialized by their field list', () => {
  const book = z.object({ title: z.string(), price: z.number(), isbn: z.string().nullable() });

  it('writes the fields of the schema, in its order, and nothing else', () => {
    const serialize = compile(serializedByFields(z.array(book), book));
    const answer = [
      { isbn: null, price: 5, title: 'Calculus', passwordHash: 'x', extra: { a: 1 } },
    ];
    expect(serialize(answer)).toBe('[{"title":"Calculus","price":5,"isbn":null}]');
  });

  it("leaves other schemas to zod's serializer, which refuses an answer off the schema", () => {
    const serialize = compile(z.array(book));
    expect(serialize([{ title: 'Calculus', price: 5, isbn: null, extra: 1 }])).toBe(
      '[{"title":"Calculus","price":5,"isbn":null}]',
    );
    expect(() => serialize([{ title: 'Calculus', price: '5', isbn: null }])).toThrow();
  });
});

describe(`the search answer (${TEST_ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const seller = await createUser(t);
    await insertListings(t, seller.id, [
      { name: 'Calculus: Early Transcendentals', imageUrls: ['/api/images/a/large.webp'] },
      { name: 'Organic Chemistry', condition: 'mint', regularPrice: 12.5 },
    ]);
  });
  afterAll(() => t.close());

  it("is byte for byte what zod's serializer writes", async () => {
    const res = await t.app.inject('/api/listing/get');
    expect(res.statusCode).toBe(200);
    const listings = res.json<unknown[]>();
    expect(listings).toHaveLength(2);
    expect(res.body).toBe(JSON.stringify(z.array(listingSchema).encode(listings as never)));
  });
});
