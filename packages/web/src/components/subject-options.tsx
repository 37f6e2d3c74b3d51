import { useCampus } from '../lib/campus';

/** A subject select's options: the empty choice (worded by the form), then each subject by code and name. */
export function SubjectOptions({ emptyLabel }: { emptyLabel: string }) {
  const { subjects } = useCampus();
  return (
    <>
      <option value="">{emptyLabel}</option>
      {subjects.map((s) => (
        <option key={s.code} value={s.code}>
          {s.code} · {s.name}
        </option>
      ))}
    </>
  );
}
