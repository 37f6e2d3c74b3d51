import type { ApiMessage } from '@campus-books/common/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client';
import { invalidateListings } from './invalidate-listings';

/** POST /api/listing/mark-as-sold/{id}: moves the listing out of search and into the owner's Sold list (owner only). */
export function markListingSold(listingId: string): Promise<ApiMessage> {
  return apiRequest<ApiMessage>(`/api/listing/mark-as-sold/${encodeURIComponent(listingId)}`, {
    method: 'POST',
  });
}

export function useMarkListingSold() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markListingSold,
    onSuccess: () => invalidateListings(queryClient),
  });
}
