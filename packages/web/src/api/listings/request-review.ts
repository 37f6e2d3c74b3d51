import type { ApiMessage } from '@campus-books/common/api';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../lib/api-client';

/**
 * POST /api/listing/request-review/{id}: the seller of a listing that reports hid asks the
 * moderators to look first (asking twice keeps the first place; 409 when reports did not hide it).
 */
export function requestListingReview(listingId: string): Promise<ApiMessage> {
  return apiCall('POST /api/listing/request-review/:id', { params: { id: listingId } });
}

export function useRequestListingReview() {
  return useMutation({ mutationFn: requestListingReview });
}
