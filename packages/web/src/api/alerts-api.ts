import type { Alert } from '@campus-books/common/alert.schemas';
import type { ApiMessage } from '@campus-books/common/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';
import { queryKeys } from '../lib/query-keys';

/** What a client sends to create or edit an alert (every filter optional). */
export interface AlertBody {
  searchTerm?: string | null;
  isbn?: string | null;
  subject?: string | null;
  courseNumber?: string | null;
  major?: string | null;
  condition?: string | null;
  school?: string | null;
  maxPrice?: number | null;
  digest?: boolean;
  paused?: boolean;
}

export function useAlerts(enabled = true) {
  return useQuery({
    queryKey: queryKeys.alerts,
    queryFn: ({ signal }) => apiRequest<Alert[]>('/api/alerts/get', { signal }),
    enabled,
  });
}

export function useCreateAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AlertBody) =>
      apiRequest<Alert>('/api/alerts/create', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.alerts }),
  });
}

/** Update replaces every field: the alert as it was, with the changes. */
export function useUpdateAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ alert, changes }: { alert: Alert; changes: Partial<AlertBody> }) => {
      const { _id, createdAt: _createdAt, ...fields } = alert;
      return apiRequest<Alert>(`/api/alerts/update/${encodeURIComponent(_id)}`, {
        method: 'POST',
        body: { ...fields, ...changes },
      });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.alerts }),
  });
}

export function useDeleteAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<ApiMessage>(`/api/alerts/delete/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.alerts }),
  });
}

export function useUnsubscribe() {
  return useMutation({
    mutationFn: (token: string) =>
      apiRequest<ApiMessage>('/api/alerts/unsubscribe', { method: 'POST', body: { token } }),
  });
}
