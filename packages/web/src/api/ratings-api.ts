import type { RateExchangeInput } from '@campus-books/common/rating.schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../lib/api-client';
import { queryKeys } from '../lib/query-keys';

/** GET /api/ratings/exchanges: the student's recorded exchanges, to rate and rated. */
export function useExchanges(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.ratings.exchanges,
    queryFn: ({ signal }) => apiCall('GET /api/ratings/exchanges', { signal }),
    enabled: options.enabled ?? true,
  });
}

/** POST /api/ratings/exchanges/{id}: the student's one rating of an exchange. */
export function useRateExchange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, rating }: { id: string; rating: RateExchangeInput }) =>
      apiCall('POST /api/ratings/exchanges/:id', { params: { id }, body: rating }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.ratings.all }),
  });
}

/** GET /api/profiles/{id}: a student's public profile (signed-in students). */
export function usePublicProfile(userId: string | undefined, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.ratings.profile(userId ?? ''),
    queryFn: ({ signal }) =>
      apiCall('GET /api/profiles/:id', { params: { id: userId ?? '' }, signal }),
    enabled: Boolean(userId) && (options.enabled ?? true),
  });
}

/** POST /api/ratings/{id}/report */
export function useReportRating() {
  return useMutation({
    mutationFn: (id: string) =>
      apiCall('POST /api/ratings/:id/report', { params: { id }, body: {} }),
  });
}

/** GET /api/ratings/reported (moderators). */
export function useReportedRatings() {
  return useQuery({
    queryKey: queryKeys.ratings.reported,
    queryFn: ({ signal }) => apiCall('GET /api/ratings/reported', { signal }),
  });
}

/** POST /api/ratings/{id}/remove or /dismiss (moderators). */
export function useModerateRating() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'remove' | 'dismiss' }) =>
      apiCall(`POST /api/ratings/:id/${action}`, { params: { id }, body: {} }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.ratings.all });
      void client.invalidateQueries({ queryKey: queryKeys.moderation.log });
    },
  });
}
