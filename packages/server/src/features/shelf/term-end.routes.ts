import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@campus-books/common/api';
import { termEndMailSchema } from '@campus-books/common/shelf.schemas';
import { termEndMailSubscribers } from '../../db/shelf.schema';
import { currentUser } from '../../plugins/sessions';

const signedIn = errorResponses({ 401: 'Not signed in', 403: 'E-mail not verified' });
const answer = z.object({ success: z.literal(true), ...termEndMailSchema.shape });

/** /api/term-end-mail: whether the student gets the end-of-term mail (off until turned on). */
export default async function termEndRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const verified = { preValidation: app.requireVerifiedUser };

  app.get(
    '/',
    { ...verified, schema: { response: { 200: answer, ...signedIn } } },
    async (request) => {
      const [row] = await app.database.db
        .select()
        .from(termEndMailSubscribers)
        .where(eq(termEndMailSubscribers.userId, currentUser(request).id));
      return { success: true as const, subscribed: Boolean(row) };
    },
  );

  // Setting it twice, or at once from two tabs, ends in the state asked for.
  app.put(
    '/',
    {
      ...verified,
      schema: {
        body: termEndMailSchema,
        response: { 200: answer, ...signedIn, ...errorResponses({ 400: 'The body is not valid' }) },
      },
    },
    async (request) => {
      const userId = currentUser(request).id;
      const { db } = app.database;
      if (request.body.subscribed) {
        await db.insert(termEndMailSubscribers).values({ userId }).onConflictDoNothing();
      } else {
        await db.delete(termEndMailSubscribers).where(eq(termEndMailSubscribers.userId, userId));
      }
      return { success: true as const, subscribed: request.body.subscribed };
    },
  );
}
