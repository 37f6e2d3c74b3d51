import { SUBJECTS } from '@campus-books/common/campus-subjects';

/** A subject select's options: the empty choice (worded by the form), then each subject by code and name. */
export function SubjectOptions({ emptyLabel }: { emptyLabel: string }) {
  return (
    <>
      <option value="">{emptyLabel}</option>
      {SUBJECTS.map((s) => (
        <option key={s.code} value={s.code}>
          {s.code} · {s.name}
        </option>
      ))}
    </>
  );
}
