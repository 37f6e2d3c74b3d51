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
