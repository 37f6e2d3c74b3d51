import type { SuggestMeetupInput } from '@campus-books/common/meetup.schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../lib/api-client';
import { queryKeys } from '../lib/query-keys';

/** GET /api/meetups?conversationId= */
export function useMeetups(conversationId: string) {
  return useQuery({
    queryKey: queryKeys.meetups(conversationId),
    queryFn: ({ signal }) => apiCall('GET /api/meetups', { query: { conversationId }, signal }),
  });
}

/** POST /api/meetups, /api/meetups/{id}/accept and /decline. */
export function useMeetupActions(conversationId: string) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: queryKeys.meetups(conversationId) });
  const suggest = useMutation({
    mutationFn: (input: Omit<SuggestMeetupInput, 'conversationId'>) =>
      apiCall('POST /api/meetups', { body: { ...input, conversationId } }),
    onSettled: refresh,
  });
  const answer = useMutation({
    mutationFn: ({ id, answer }: { id: string; answer: 'accept' | 'decline' }) =>
      apiCall(`POST /api/meetups/:id/${answer}`, { params: { id } }),
    onSettled: refresh,
  });
  return { suggest, answer };
}

/** The accepted meetup's calendar entry, downloaded by the browser. */
export const meetupCalendarHref = (id: string) =>
  `/api/meetups/${encodeURIComponent(id)}/calendar.ics`;
