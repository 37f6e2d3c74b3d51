import type { ApiMessage } from '@campus-books/common/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../lib/api-client';
import { invalidateListings } from './invalidate-listings';

/** DELETE /api/listing/delete/{id}: deletes the listing and its stored images (owner only). */
export function deleteListing(listingId: string): Promise<ApiMessage> {
  return apiCall('DELETE /api/listing/delete/:id', { params: { id: listingId } });
}

export function useDeleteListing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteListing,
    onSuccess: () => invalidateListings(queryClient),
  });
}
