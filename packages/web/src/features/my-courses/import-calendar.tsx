import { CALENDAR_MAX_CHARS, CALENDAR_MESSAGES } from '@campus-books/common/my-courses.schemas';
import type { UnreadCourse } from '@campus-books/common/course-list';
import { useId, useState, type ChangeEvent } from 'react';
import { RequestError } from '../../components/ui/request-error';
import { useReadCalendar } from './api/my-courses-api';
import type { AddResult } from './use-course-list';

/**
 * "Import your schedule": an .ics file, read by the server (ical.js), whose courses are added to the
 * list; the events it could not read are shown with the rest of the answer.
 */
export function ImportCalendar({
  onAdd,
  onResult,
}: {
  onAdd: (text: string) => Promise<AddResult>;
  onResult: (result: AddResult & { events: number }) => void;
}) {
  const inputId = useId();
  const readCalendar = useReadCalendar();
  const [error, setError] = useState<Error | null>(null);

  async function importFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setError(null);
    try {
      if (file.size > CALENDAR_MAX_CHARS * 2) throw new Error(CALENDAR_MESSAGES.tooLarge);
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(await file.arrayBuffer());
      } catch {
        throw new Error(CALENDAR_MESSAGES.encoding);
      }
      const read = await readCalendar.mutateAsync(text);
      const unknown: UnreadCourse[] = read.unknown;
      const added =
        read.courses.length > 0
          ? await onAdd(read.courses.map((c) => c.label).join(', '))
          : { added: [], unknown: [], duplicates: [] };
      onResult({ ...added, unknown: [...unknown, ...added.unknown], events: read.events });
    } catch (failure) {
      setError(failure as Error);
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={inputId} className="text-sm font-semibold text-slate-900">
        Import your schedule (.ics)
      </label>
      <input
        id={inputId}
        type="file"
        accept=".ics,text/calendar"
        onChange={importFile}
        disabled={readCalendar.isPending}
        className="min-h-11 w-full max-w-full min-w-0 text-sm text-slate-800 file:mr-3 file:min-h-11 file:rounded-lg file:border file:border-slate-300 file:bg-white file:px-4 file:font-semibold"
      />
      {readCalendar.isPending ? (
        <p className="text-sm text-slate-700">Reading your schedule…</p>
      ) : null}
      <RequestError error={error} />
    </div>
  );
}
