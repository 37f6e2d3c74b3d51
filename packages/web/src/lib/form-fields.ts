import {
  get,
  type FieldErrors,
  type FieldPath,
  type FieldValues,
  type UseFormRegister,
} from 'react-hook-form';

/**
 * The props that bind a form field component (TextField, SelectField…) to one value of a
 * react-hook-form form: its registration and its error message, so a field names its value once.
 */
export function fieldsOf<T extends FieldValues>(
  register: UseFormRegister<T>,
  errors: FieldErrors<T>,
) {
  return (name: FieldPath<T>) => ({
    ...register(name),
    error: (get(errors, name) as { message?: string } | undefined)?.message,
  });
}
