import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../lib/api-client';
import { queryKeys } from '../lib/query-keys';

export function useSavedListings(enabled = true) {
  return useQuery({
    queryKey: queryKeys.saved,
    queryFn: ({ signal }) => apiCall('GET /api/saved/get', { signal }),
    enabled,
    staleTime: 60_000,
  });
}

export function useToggleSaved() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ listingId, save }: { listingId: string; save: boolean }) =>
      save
        ? apiCall('POST /api/saved/add/:id', { params: { id: listingId } })
        : apiCall('DELETE /api/saved/remove/:id', { params: { id: listingId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.saved }),
  });
}

/** Whether the student gets mails about their saved listings (price drops, sales). */
export function useSavedListingMails(enabled = true) {
  return useQuery({
    queryKey: queryKeys.savedMails,
    queryFn: ({ signal }) => apiCall('GET /api/saved/mails', { signal }),
    enabled,
  });
}

export function useSetSavedListingMails() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (savedListingMails: boolean) =>
      apiCall('POST /api/saved/mails', { body: { savedListingMails } }),
    onSuccess: (answer) => client.setQueryData(queryKeys.savedMails, answer),
  });
}
