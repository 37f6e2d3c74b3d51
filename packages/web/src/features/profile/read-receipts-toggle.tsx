import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckboxField } from '../../components/ui/form-field';
import { RequestError } from '../../components/ui/request-error';
import { apiCall } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';

/**
 * Read receipts ("Seen", issue 44): on by default; off, nobody sees when the student has read their
 * messages, and the student sees no "Seen" either. A conversation shows the change when read again.
 */
export function ReadReceiptsToggle() {
  const queryClient = useQueryClient();
  const setting = useQuery({
    queryKey: queryKeys.readReceipts,
    queryFn: ({ signal }) => apiCall('GET /api/conversations/receipts', { signal }),
  });
  const change = useMutation({
    mutationFn: (readReceipts: boolean) =>
      apiCall('POST /api/conversations/receipts', { body: { readReceipts } }),
    onSuccess: (answer) => {
      queryClient.setQueryData(queryKeys.readReceipts, { readReceipts: answer.readReceipts });
      void queryClient.invalidateQueries({ queryKey: queryKeys.conversations.all });
    },
  });
  return (
    <>
      <CheckboxField
        className="mt-3"
        label="Read receipts: show “Seen” when I have read a message"
        hint="Off, nobody sees when you have read their messages, and you see no “Seen” either."
        checked={setting.data?.readReceipts ?? false}
        disabled={!setting.data || change.isPending}
        onChange={(e) => change.mutate(e.target.checked)}
      />
      <RequestError error={change.error ?? setting.error} />
    </>
  );
}
