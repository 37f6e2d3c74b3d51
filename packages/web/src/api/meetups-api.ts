import type { Meetup, SuggestMeetupInput } from '@campus-books/common/meetup.schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../lib/api-client';
import { queryKeys } from '../lib/query-keys';

/** GET /api/meetups?conversationId= */
export function useMeetups(conversationId: string) {
  return useQuery({
    queryKey: queryKeys.meetups(conversationId),
    queryFn: ({ signal }) =>
      apiRequest<{ meetups: Meetup[] }>(
        `/api/meetups?conversationId=${encodeURIComponent(conversationId)}`,
        { signal },
      ),
  });
}

/** POST /api/meetups, /api/meetups/{id}/accept and /decline. */
export function useMeetupActions(conversationId: string) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: queryKeys.meetups(conversationId) });
  const suggest = useMutation({
    mutationFn: (input: Omit<SuggestMeetupInput, 'conversationId'>) =>
      apiRequest<{ meetup: Meetup }>('/api/meetups', {
        method: 'POST',
        body: { ...input, conversationId },
      }),
    onSettled: refresh,
  });
  const answer = useMutation({
    mutationFn: ({ id, answer }: { id: string; answer: 'accept' | 'decline' }) =>
      apiRequest<{ meetup: Meetup }>(`/api/meetups/${encodeURIComponent(id)}/${answer}`, {
        method: 'POST',
      }),
    onSettled: refresh,
  });
  return { suggest, answer };
}

/** The accepted meetup's calendar entry, downloaded by the browser. */
export const meetupCalendarHref = (id: string) =>
  `/api/meetups/${encodeURIComponent(id)}/calendar.ics`;
