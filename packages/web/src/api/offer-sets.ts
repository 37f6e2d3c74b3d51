import type { OfferFromListingInput } from '@campus-books/common/conversation.schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../lib/api-client';
import { queryKeys } from '../lib/query-keys';

/**
 * GET /api/listing/{id}/bundle-candidates: the seller's other listings a buyer may offer for
 * together with this one, from its page or the seller's profile (issue 44).
 */
export function useListingBundleCandidates(listingId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.conversations.listingBundleCandidates(listingId ?? ''),
    queryFn: ({ signal }) =>
      apiCall('GET /api/listing/:id/bundle-candidates', {
        params: { id: listingId! },
        signal,
      }),
    enabled: enabled && listingId !== undefined,
  });
}

/**
 * POST /api/conversations/offers: one offer for the listing and the others chosen, opening the
 * conversation about it. The key is made once per form: a double tap or a retry makes one offer.
 * A refusal refreshes the candidates, so the book refused shows why.
 */
export function useOfferFromListing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: OfferFromListingInput) =>
      apiCall('POST /api/conversations/offers', { body: input }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.conversations.all });
    },
  });
}
