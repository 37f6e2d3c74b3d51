import type { ApiMessage } from '@campus-books/common/api';
import type { Listing } from '@campus-books/common/listing.schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';
import { queryKeys } from '../lib/query-keys';

export function useSavedListings(enabled = true) {
  return useQuery({
    queryKey: queryKeys.saved,
    queryFn: ({ signal }) => apiRequest<Listing[]>('/api/saved/get', { signal }),
    enabled,
    staleTime: 60_000,
  });
}

export function useToggleSaved() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ listingId, save }: { listingId: string; save: boolean }) =>
      apiRequest<ApiMessage>(
        save
          ? `/api/saved/add/${encodeURIComponent(listingId)}`
          : `/api/saved/remove/${encodeURIComponent(listingId)}`,
        { method: save ? 'POST' : 'DELETE' },
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.saved }),
  });
}

/** Whether the student gets mails about their saved listings (price drops, sales). */
export function useSavedListingMails(enabled = true) {
  return useQuery({
    queryKey: queryKeys.savedMails,
    queryFn: ({ signal }) =>
      apiRequest<{ savedListingMails: boolean }>('/api/saved/mails', { signal }),
    enabled,
  });
}

export function useSetSavedListingMails() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (savedListingMails: boolean) =>
      apiRequest<ApiMessage & { savedListingMails: boolean }>('/api/saved/mails', {
        method: 'POST',
        body: { savedListingMails },
      }),
    onSuccess: (answer) => client.setQueryData(queryKeys.savedMails, answer),
  });
}
