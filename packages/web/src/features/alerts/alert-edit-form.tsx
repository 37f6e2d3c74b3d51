import { alertInputSchema, type Alert, type AlertInput } from '@campus-books/common/alert.schemas';
import { PRICE_MAX } from '@campus-books/common/constants';
import { CONDITION_OPTIONS } from '@campus-books/common/display';
import { useEffect, useId, useRef } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { MajorSelect } from '../../components/major-select';
import { Button } from '../../components/ui/button';
import { CheckboxField, SelectField, TextField } from '../../components/ui/form-field';
import { SubjectOptions } from '../../components/subject-options';
import { bodyResolver } from '../../lib/body-resolver';
import { useCampus } from '../../lib/campus';
import { fieldsOf } from '../../lib/form-fields';
import { ApiError } from '../../lib/api-client';
import { useUpdateAlert } from '../../api/alerts-api';

/** The form's values: what the controls hold (text, '' for "any"), before the shared schema reads them. */
interface AlertFormValues {
  searchTerm: string;
  isbn: string;
  subject: string;
  courseNumber: string;
  major: string;
  condition: string;
  school: string;
  maxPrice: string;
  digest: boolean;
}

const FIELDS = [
  'searchTerm',
  'isbn',
  'subject',
  'courseNumber',
  'major',
  'condition',
  'school',
  'maxPrice',
  'digest',
] as const;

function formValues(alert: Alert): AlertFormValues {
  return {
    searchTerm: alert.searchTerm ?? '',
    isbn: alert.isbn ?? '',
    subject: alert.subject ?? '',
    courseNumber: alert.courseNumber ?? '',
    major: alert.major ?? '',
    condition: alert.condition ?? 'con-all',
    school: alert.school ?? '',
    maxPrice: alert.maxPrice === null ? '' : String(alert.maxPrice),
    digest: alert.digest,
  };
}

/** The controls' text as the API's body: '' is "not set"; a price box is a number (or left empty). */
function toBody(values: AlertFormValues, paused: boolean) {
  const price = values.maxPrice.trim();
  return {
    ...values,
    school: values.school || null,
    maxPrice: price === '' ? null : Number(price),
    paused,
  };
}

/** The filters of one alert, to change and save (the whole alert is sent: the API replaces it). */
export function AlertEditForm({ alert, onDone }: { alert: Alert; onDone(): void }) {
  const update = useUpdateAlert();
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { schools } = useCampus();
  const {
    register,
    handleSubmit,
    control,
    setError,
    formState: { errors },
  } = useForm<AlertFormValues, unknown, AlertInput>({
    // The "choose something to watch" rule belongs to no one field: it shows as the form's error.
    resolver: bodyResolver(alertInputSchema, (values) => toBody(values, alert.paused), FIELDS),
    defaultValues: formValues(alert),
  });
  const field = fieldsOf(register, errors);

  // Opening the form moves focus into it, so keyboard and screen-reader users land on it.
  useEffect(() => headingRef.current?.focus(), []);

  const onSubmit = (input: AlertInput) =>
    update.mutate(
      { alert, changes: input },
      {
        onSuccess: onDone,
        onError: (error) => {
          const fieldErrors = error instanceof ApiError ? (error.errors ?? []) : [];
          let isShown = false;
          for (const fieldError of fieldErrors) {
            const field = FIELDS.find((name) => name === fieldError.field);
            if (field) {
              setError(field, { message: fieldError.message });
              isShown = true;
            }
          }
          if (!isShown) setError('root', { message: error.message });
        },
      },
    );

  return (
    <form
      noValidate
      aria-labelledby={headingId}
      onSubmit={handleSubmit(onSubmit)}
      className="mt-2 flex flex-col gap-4 border-t border-slate-200 pt-4"
    >
      <h2
        id={headingId}
        ref={headingRef}
        tabIndex={-1}
        className="text-lg font-semibold text-slate-900"
      >
        Edit this alert
      </h2>
      {errors.root?.message ? (
        <p role="alert" className="text-sm font-medium text-red-800">
          {errors.root.message}
        </p>
      ) : null}
      <TextField
        label="Title words"
        hint="Words the title must contain, or an ISBN"
        {...field('searchTerm')}
      />
      <TextField label="ISBN" inputMode="numeric" autoComplete="off" {...field('isbn')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField label="Subject" {...field('subject')}>
          <SubjectOptions emptyLabel="Any subject" />
        </SelectField>
        <TextField label="Course number" {...field('courseNumber')} />
      </div>
      <Controller
        control={control}
        name="major"
        render={({ field }) => (
          <MajorSelect
            label="Major"
            value={field.value}
            onChange={field.onChange}
            error={errors.major?.message}
          />
        )}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField label="Condition" {...field('condition')}>
          <option value="con-all">Any condition</option>
          {CONDITION_OPTIONS.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </SelectField>
        <SelectField label="School" {...field('school')}>
          <option value="">Any school</option>
          {schools.map((s) => (
            <option key={s.key} value={s.key}>
              {s.filterLabel ?? s.label}
            </option>
          ))}
        </SelectField>
      </div>
      <TextField
        label="Maximum price ($)"
        type="number"
        inputMode="decimal"
        min={0}
        max={PRICE_MAX}
        step="0.01"
        hint="Leave empty for any price"
        {...field('maxPrice')}
      />
      <CheckboxField label="One mail a day (daily digest)" {...field('digest')} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" isLoading={update.isPending} loadingText="Saving…">
          Save alert
        </Button>
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
