import type { FastifyReply } from 'fastify';

/**
 * Sends an answer whose JSON text is already written (the search's, by the database:
 * features/listings/listing-json-answer.ts), as it is: Fastify sends a string it is told is JSON without
 * serializing it again. The route's response schema still documents it (OpenAPI); listing-json-trigger.test.ts
 * holds the text to that schema.
 */
export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  // The route's typed send expects the schema's object; this text is that object's JSON.
  return reply.type('application/json; charset=utf-8').send(json as never);
}
