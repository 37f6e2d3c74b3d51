import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { CheckboxField } from '../../components/ui/form-field';
import { RequestError } from '../../components/ui/request-error';
import { paths } from '../../config/paths';
import { apiCall } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';

/** The opt-in end-of-term mail: the courses in demand the student can sell into (issue 31). */
export function TermEndMailToggle() {
  const queryClient = useQueryClient();
  const setting = useQuery({
    queryKey: queryKeys.termEndMail,
    queryFn: ({ signal }) => apiCall('GET /api/term-end-mail', { signal }),
  });
  const change = useMutation({
    mutationFn: (subscribed: boolean) =>
      apiCall('PUT /api/term-end-mail', { body: { subscribed } }),
    onSuccess: (answer) => queryClient.setQueryData(queryKeys.termEndMail, answer),
  });
  return (
    <section aria-labelledby="term-end-title" className="rounded-lg border border-slate-200 p-4">
      <h2 id="term-end-title" className="text-lg font-bold text-slate-900">
        End of term
      </h2>
      <CheckboxField
        className="mt-2"
        label="Mail me at the end of each term which of my courses students want books for"
        hint={
          <>
            Once a term, if you bought or listed books. Then{' '}
            <Link to={paths.sellMyShelf} className="link">
              sell several books
            </Link>{' '}
            in a row.
          </>
        }
        checked={setting.data?.subscribed ?? false}
        disabled={!setting.data || change.isPending}
        onChange={(e) => change.mutate(e.target.checked)}
      />
      <RequestError error={change.error ?? setting.error} />
    </section>
  );
}
