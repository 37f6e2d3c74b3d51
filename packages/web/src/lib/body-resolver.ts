import { set, type FieldErrors, type FieldValues, type Resolver } from 'react-hook-form';
import type { z } from 'zod';

/**
 * The resolver of a form whose values are not the request's body (a price typed as text, only the
 * changed fields sent): `toBody` makes what the form would send and the server's own schema judges
 * it, so the form validates exactly as the API does. Each problem shows under its field, or as the
 * form's error (`root`) when it names none of `fields` (a rule about the whole body).
 */
export function bodyResolver<Values extends FieldValues, Schema extends z.ZodType>(
  schema: Schema,
  toBody: (values: Values) => unknown,
  fields: readonly (keyof Values & string)[],
): Resolver<Values, unknown, z.output<Schema>> {
  return async (values) => {
    const result = await schema.safeParseAsync(toBody(values));
    if (result.success) return { values: result.data, errors: {} };
    const errors: FieldErrors<Values> = {};
    for (const { path, code, message } of result.error.issues) {
      const name = fields.find((field) => field === path[0]) ?? 'root';
      // The first problem of each field, as react-hook-form's own resolvers report them.
      if (!(name in errors)) set(errors, name, { type: code, message });
    }
    return { values: {}, errors };
  };
}
