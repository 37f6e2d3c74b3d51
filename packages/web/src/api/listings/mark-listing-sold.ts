import type { ApiMessage } from '@campus-books/common/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { invalidateListings } from './invalidate-listings';

/**
 * POST /api/conversations/listing/{id}/sold: sold, to one of the students who wrote about it
 * (`buyerId`) or to someone else (null); it moves to the owner's Sold list (owner only).
 */
export function markListingSoldTo(listingId: string, buyerId: string | null): Promise<ApiMessage> {
  return apiCall('POST /api/conversations/listing/:listingId/sold', {
    params: { listingId },
    body: { buyerId },
  });
}

/** "Sold to whom?" for one listing (My listings, the thread's deal panel). */
export function useMarkListingSoldTo(listingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (buyerId: string | null) => markListingSoldTo(listingId, buyerId),
    onSuccess: () =>
      Promise.all([
        invalidateListings(queryClient),
        queryClient.invalidateQueries({ queryKey: queryKeys.conversations.all }),
      ]),
  });
}
