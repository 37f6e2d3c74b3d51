import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';

const byFieldList = new WeakMap<object, (data: unknown) => string>();

/**
 * Marks a response schema whose answers are built by the server's own typed code (`toListing`) as
 * serialized by JSON.stringify with the object's field names as its allow-list: the fields of the
 * schema, in its order, and nothing else, without zod encoding every answer first (docs/performance.md). For objects of plain JSON values (strings, numbers, booleans, null, arrays of
 * those), or arrays of such objects. The schema still documents the route (OpenAPI).
 */
export function serializedByFields<T extends z.ZodType>(schema: T, object: z.ZodObject): T {
  const fields = Object.keys(object.shape);
  byFieldList.set(schema, (data) => JSON.stringify(data, fields));
  return schema;
}

/** Zod's serializer (encode, then JSON.stringify), or the field-list one for marked schemas. */
export const answerSerializerCompiler: FastifySerializerCompiler<z.ZodType> = (route) =>
  byFieldList.get(route.schema) ??
  (zodSerializerCompiler as unknown as FastifySerializerCompiler<z.ZodType>)(route);
