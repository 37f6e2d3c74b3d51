import type { ListingCreateInput } from '@campus-books/common/listing.schemas';
import { CONDITION_OPTIONS } from '@campus-books/common/display';
import { useController, type Control, type UseFormRegister } from 'react-hook-form';
import { CheckboxField } from '../../components/ui/form-field';
import { useCampus } from '../../lib/campus';
import type { ListingFormValues } from './listing-form-values';

const LEGEND = 'text-sm font-semibold text-slate-800';

/** Condition: one choice among the four (a radio group). */
export function ConditionChoice({
  register,
  error,
}: {
  register: UseFormRegister<ListingFormValues>;
  error?: string;
}) {
  return (
    <fieldset aria-describedby={error ? 'condition-error' : undefined}>
      <legend className={LEGEND}>Condition</legend>
      <div className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-4">
        {CONDITION_OPTIONS.map((choice) => (
          <label
            key={choice.value}
            className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 has-checked:border-brand-700 has-checked:bg-brand-50"
          >
            <input
              type="radio"
              value={choice.value}
              className="size-4 accent-brand-700"
              {...register('condition')}
            />
            {choice.label}
          </label>
        ))}
      </div>
      {error ? (
        <p id="condition-error" className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/**
 * School: independent checkboxes, one per school of the campus, editing the listing's list of school
 * keys (kept in the campus's order, as the server stores it). Controlled rather than registered: a
 * campus of one school would make a registered checkbox a boolean instead of a list.
 */
export function SchoolChoices({
  control,
}: {
  control: Control<ListingFormValues, unknown, ListingCreateInput>;
}) {
  const { schools, schoolKeys } = useCampus();
  const { field } = useController({ control, name: 'schools' });
  const chosen = field.value ?? [];
  const toggle = (key: string, isChecked: boolean) =>
    field.onChange(schoolKeys.filter((k) => (k === key ? isChecked : chosen.includes(k))));
  return (
    <fieldset>
      <legend className={LEGEND}>School</legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {schools.map((school) => (
          <CheckboxField
            key={school.key}
            label={school.label}
            name={field.name}
            value={school.key}
            checked={chosen.includes(school.key)}
            onChange={(event) => toggle(school.key, event.target.checked)}
            onBlur={field.onBlur}
          />
        ))}
      </div>
    </fieldset>
  );
}
