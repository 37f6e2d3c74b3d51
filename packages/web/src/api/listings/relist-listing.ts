import type { ApiMessage } from '@campus-books/common/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../lib/api-client';
import { invalidateListings } from './invalidate-listings';

/** POST /api/listing/relist/{id}: puts a sold listing back on sale (owner only). */
export function relistListing(listingId: string): Promise<ApiMessage> {
  return apiCall('POST /api/listing/relist/:id', { params: { id: listingId } });
}

export function useRelistListing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: relistListing,
    onSuccess: () => invalidateListings(queryClient),
  });
}
