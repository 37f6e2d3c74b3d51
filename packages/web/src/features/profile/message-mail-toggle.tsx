import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckboxField } from '../../components/ui/form-field';
import { RequestError } from '../../components/ui/request-error';
import { apiCall } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { ReadReceiptsToggle } from './read-receipts-toggle';

/**
 * The Messages settings: e-mail about unread messages (issue 28: on by default; the mails'
 * unsubscribe link turns it off) and read receipts.
 */
export function MessageMailToggle() {
  const queryClient = useQueryClient();
  const setting = useQuery({
    queryKey: queryKeys.messageMails,
    queryFn: ({ signal }) => apiCall('GET /api/conversations/mails', { signal }),
  });
  const change = useMutation({
    mutationFn: (messageMails: boolean) =>
      apiCall('POST /api/conversations/mails', { body: { messageMails } }),
    onSuccess: (answer) =>
      queryClient.setQueryData(queryKeys.messageMails, { messageMails: answer.messageMails }),
  });
  return (
    <section
      aria-labelledby="message-mails-title"
      className="rounded-lg border border-slate-200 p-4"
    >
      <h2 id="message-mails-title" className="text-lg font-bold text-slate-900">
        Messages
      </h2>
      <CheckboxField
        className="mt-2"
        label="E-mail me about messages I have not read"
        hint="One mail per conversation, a few minutes after a message you have not read here."
        checked={setting.data?.messageMails ?? false}
        disabled={!setting.data || change.isPending}
        onChange={(e) => change.mutate(e.target.checked)}
      />
      <RequestError error={change.error ?? setting.error} />
      <ReadReceiptsToggle />
    </section>
  );
}
