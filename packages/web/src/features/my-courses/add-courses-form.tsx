import { useId, useState, type FormEvent } from 'react';
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
  const [text, setText] = useState('');
  const [error, setError] = useState<Error | null>(null);
  const [isPending, setIsPending] = useState(false);
  const options = useCompletion(text);
  const before = text.includes(',') ? text.slice(0, text.lastIndexOf(',') + 1) + ' ' : '';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    setIsPending(true);
    setError(null);
    try {
      onResult(await onAdd(text));
      setText('');
    } catch (failure) {
      setError(failure as Error);
    } finally {
      setIsPending(false);
    }
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-2">
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
          value={text}
          maxLength={2000}
          autoComplete="off"
          aria-describedby={hintId}
          onChange={(e) => setText(e.target.value)}
          className="min-h-11 w-full rounded-lg border border-slate-500 px-3 py-2 text-base"
        />
        <datalist id={listId}>
          {options.map((option) => (
            <option key={option} value={`${before}${option}`} />
          ))}
        </datalist>
        <Button type="submit" isLoading={isPending} loadingText="Adding…" className="shrink-0">
          Add
        </Button>
      </div>
      <RequestError error={error} />
    </form>
  );
}
