import { COURSE_LIST_MAX_LENGTH } from '@campus-books/common/course-list';
import { addCoursesBodySchema } from '@campus-books/common/my-courses.schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Button } from '../../components/ui/button';
import { RequestError } from '../../components/ui/request-error';
import { useCampus } from '../../lib/campus';
import { useCourseSuggestions } from './api/my-courses-api';
import type { AddResult } from './use-course-list';

/** What the completion suggests for the text typed so far: subjects, then the catalogue's courses. */
function useCompletion(text: string): string[] {
  const { subjects } = useCampus();
  const last =
    text
      .split(/[,;]|\band\b/i)
      .at(-1)
      ?.trim() ?? '';
  const match = /^([A-Za-z]{2,5})[\s_-]*(\d{0,4})$/.exec(last);
  const subject =
    match && subjects.some((s) => s.code === match[1]!.toUpperCase())
      ? match[1]!.toUpperCase()
      : null;
  const suggestions = useCourseSuggestions(subject, match?.[2] ?? '');
  if (subject) return suggestions.data ?? [];
  const prefix = last.toUpperCase();
  if (!/^[A-Z]{1,4}$/.test(prefix)) return [];
  return subjects.filter((s) => s.code.startsWith(prefix)).map((s) => `${s.code} `);
}

const resolver = zodResolver(addCoursesBodySchema);

/** One box for a code (with completion) or a pasted list: "ECON 101, MATH-211 and CHEM 205". */
export function AddCoursesForm({
  onAdd,
  onResult,
}: {
  onAdd: (text: string) => Promise<AddResult>;
  onResult: (result: AddResult) => void;
}) {
  const inputId = useId();
  const listId = useId();
  const hintId = useId();
  const errorId = useId();
  const {
    register,
    handleSubmit,
    control,
    getValues,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({ resolver, defaultValues: { text: '' } });
  const [failure, setFailure] = useState<Error | null>(null);
  const text = useWatch({ control, name: 'text' });
  const options = useCompletion(text);
  const before = text.includes(',') ? text.slice(0, text.lastIndexOf(',') + 1) + ' ' : '';
  const add = handleSubmit(async (body) => {
    setFailure(null);
    try {
      onResult(await onAdd(body.text));
      reset();
    } catch (error) {
      setFailure(error as Error);
    }
  });

  return (
    <form
      noValidate
      onSubmit={(event) => (getValues('text').trim() ? add(event) : event.preventDefault())}
      className="flex flex-col gap-2"
    >
      <label htmlFor={inputId} className="text-sm font-semibold text-slate-900">
        Add courses
      </label>
      <p id={hintId} className="text-sm text-slate-700">
        Type a code such as ECON 101, or paste your list: “ECON 101, MATH-211 and CHEM 205”.
      </p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id={inputId}
          list={listId}
          maxLength={COURSE_LIST_MAX_LENGTH}
          autoComplete="off"
          aria-invalid={errors.text ? true : undefined}
          aria-describedby={errors.text ? `${hintId} ${errorId}` : hintId}
          className="min-h-11 w-full rounded-lg border border-slate-500 px-3 py-2 text-base"
          {...register('text')}
        />
        <datalist id={listId}>
          {options.map((option) => (
            <option key={option} value={`${before}${option}`} />
          ))}
        </datalist>
        <Button type="submit" isLoading={isSubmitting} loadingText="Adding…" className="shrink-0">
          Add
        </Button>
      </div>
      {errors.text?.message ? (
        <p id={errorId} className="text-sm font-medium text-red-700">
          {errors.text.message}
        </p>
      ) : null}
      <RequestError error={failure} />
    </form>
  );
}
