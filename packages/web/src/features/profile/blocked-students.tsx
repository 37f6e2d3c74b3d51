import { useBlock, useBlockedStudents } from '../../api/blocks';
import { Button } from '../../components/ui/button';
import { RequestError } from '../../components/ui/request-error';

/** The students this one blocked, each with Unblock (a block is made from a conversation). */
export function BlockedStudents() {
  const blocked = useBlockedStudents();
  const block = useBlock();
  return (
    <section aria-labelledby="blocked-students" className="rounded-xl border border-slate-200 p-4">
      <h2 id="blocked-students" className="font-bold text-slate-900">
        Blocked students
      </h2>
      {blocked.isPending ? null : blocked.isError ? (
        <RequestError error={blocked.error} />
      ) : blocked.data.length === 0 ? (
        <p className="mt-1 text-sm text-slate-700">
          You have not blocked anyone. You can block a student from a conversation.
        </p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-200">
          {blocked.data.map((student) => (
            <li key={student.id} className="flex items-center justify-between gap-3 py-2">
              <span className="min-w-0 wrap-anywhere text-slate-900">{student.username}</span>
              <Button
                variant="secondary"
                disabled={block.isPending}
                onClick={() => block.mutate({ userId: student.id, block: false })}
              >
                Unblock<span className="sr-only"> {student.username}</span>
              </Button>
            </li>
          ))}
        </ul>
      )}
      <RequestError error={block.error} />
    </section>
  );
}
