import type { Seller } from '@campus-books/common/account.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../lib/api-client';
import { queryKeys } from '../lib/query-keys';

/** GET /api/user/get/{id}: a seller's name and GroupMe link (signed-in, verified students only). */
export function getSeller(sellerId: string, signal?: AbortSignal): Promise<Seller> {
  return apiCall('GET /api/user/get/:id', { params: { id: sellerId }, signal });
}

export const sellerQueryOptions = (sellerId: string) =>
  queryOptions({
    queryKey: queryKeys.seller(sellerId),
    queryFn: ({ signal }) => getSeller(sellerId, signal),
  });

export function useSeller(sellerId: string | undefined, options: { enabled: boolean }) {
  return useQuery({
    ...sellerQueryOptions(sellerId ?? ''),
    enabled: options.enabled && Boolean(sellerId),
  });
}
