import type { StartConversationInput } from '@campus-books/common/conversation.schemas';
import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { invalidateListings } from '../../../api/listings/invalidate-listings';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/conversations/{id}: the events oldest first, the open offer, the hold, read-only. */
export const conversationQueryOptions = (conversationId: string) =>
  queryOptions({
    queryKey: queryKeys.conversations.one(conversationId),
    queryFn: ({ signal }) =>
      apiCall('GET /api/conversations/:id', { params: { id: conversationId }, signal }),
    // The stream keeps it fresh; a remount (back from another page) asks again.
    staleTime: 0,
  });

export function useConversation(conversationId: string) {
  return useQuery(conversationQueryOptions(conversationId));
}

/** Every change in a conversation can change the inbox, the unread count and the listing's hold. */
function refreshAfter(queryClient: QueryClient) {
  return () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.conversations.all });
  };
}

/**
 * POST /api/conversations: the first message about a listing (or the next, to the same one). Sends
 * carry the typed message's key as `clientId`: sent twice (a double tap, a retry), the server writes
 * it once.
 */
export function useStartConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, ...input }: StartConversationInput & { key: string }) =>
      apiCall('POST /api/conversations', { body: { ...input, clientId: key } }),
    onSuccess: refreshAfter(queryClient),
  });
}

/** POST /api/conversations/{id}/messages */
export function useSendMessage(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ text, key, photos }: { text: string; key: string; photos: string[] }) =>
      apiCall('POST /api/conversations/:id/messages', {
        params: { id: conversationId },
        body: { text, clientId: key, ...(photos.length > 0 ? { photos } : {}) },
      }),
    onSuccess: refreshAfter(queryClient),
  });
}

/**
 * GET /api/conversations/{id}/bundle-candidates: the seller's other listings the buyer may add to
 * one offer, those of the same course first (issue 44).
 */
export function useBundleCandidates(conversationId: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.conversations.bundleCandidates(conversationId),
    queryFn: ({ signal }) =>
      apiCall('GET /api/conversations/:id/bundle-candidates', {
        params: { id: conversationId },
        signal,
      }),
    enabled,
  });
}

/**
 * POST /api/conversations/{id}/offers: the buyer's offer (with `listingIds`, the seller's other
 * books offered for together), or the seller's counter (the amount only: it keeps the set). A
 * refusal refreshes the candidates, so the book refused shows why it cannot be added.
 */
export function useMakeOffer(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ amount, listingIds }: { amount: number; listingIds: string[] }) =>
      apiCall('POST /api/conversations/:id/offers', {
        params: { id: conversationId },
        body: { amount, ...(listingIds.length > 0 ? { listingIds } : {}) },
      }),
    onSuccess: refreshAfter(queryClient),
    onError: () => {
      void queryClient.invalidateQueries({
        queryKey: queryKeys.conversations.bundleCandidates(conversationId),
      });
    },
  });
}

/** POST /api/conversations/{id}/offers/{offerId}/accept | decline */
export function useAnswerOffer(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ offerId, answer }: { offerId: string; answer: 'accept' | 'decline' }) =>
      apiCall(`POST /api/conversations/:id/offers/:offerId/${answer}`, {
        params: { id: conversationId, offerId },
      }),
    onSuccess: () => {
      refreshAfter(queryClient)();
      void invalidateListings(queryClient);
    },
  });
}

/** The seller's hold and sale: POST /api/conversations/listing/{listingId}/release | sold */
export function useListingDeal(listingId: string) {
  const queryClient = useQueryClient();
  const onSuccess = () => {
    refreshAfter(queryClient)();
    void invalidateListings(queryClient);
  };
  return {
    release: useMutation({
      mutationFn: () =>
        apiCall('POST /api/conversations/listing/:listingId/release', { params: { listingId } }),
      onSuccess,
    }),
    sold: useMutation({
      mutationFn: (buyerId: string | null) =>
        apiCall('POST /api/conversations/listing/:listingId/sold', {
          params: { listingId },
          body: { buyerId },
        }),
      onSuccess,
    }),
  };
}

/** POST /api/conversations/{id}/read: the mark never moves back, so sending it twice is harmless. */
export function useMarkRead(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (upTo: number) =>
      apiCall('POST /api/conversations/:id/read', {
        params: { id: conversationId },
        body: { upTo },
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.conversations.unread });
      void queryClient.invalidateQueries({ queryKey: queryKeys.conversations.lists });
    },
  });
}
