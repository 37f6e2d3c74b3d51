import type { Alert, AlertBody } from '@campus-books/common/alert.schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../lib/api-client';
import { queryKeys } from '../lib/query-keys';

export function useAlerts(enabled = true) {
  return useQuery({
    queryKey: queryKeys.alerts,
    queryFn: ({ signal }) => apiCall('GET /api/alerts/get', { signal }),
    enabled,
  });
}

export function useCreateAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AlertBody) => apiCall('POST /api/alerts/create', { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.alerts }),
  });
}

/** Update replaces every field: the alert as it was, with the changes. */
export function useUpdateAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ alert, changes }: { alert: Alert; changes: Partial<AlertBody> }) => {
      const { _id, createdAt: _createdAt, ...fields } = alert;
      return apiCall('POST /api/alerts/update/:id', {
        params: { id: _id },
        body: { ...fields, ...changes },
      });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.alerts }),
  });
}

export function useDeleteAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiCall('DELETE /api/alerts/delete/:id', { params: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.alerts }),
  });
}

export function useUnsubscribe() {
  return useMutation({
    mutationFn: (token: string) => apiCall('POST /api/alerts/unsubscribe', { body: { token } }),
  });
}
