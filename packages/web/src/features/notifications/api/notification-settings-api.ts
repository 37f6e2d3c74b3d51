import type { NotificationSettings } from '@campus-books/common/notification.schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The student's choices of what reaches them, and the campus's time zone they are read in. */
export function useNotificationSettings() {
  return useQuery({
    queryKey: queryKeys.notifications,
    queryFn: ({ signal }) => apiCall('GET /api/notifications', { signal }),
  });
}

/** Saves the whole of the choices; the answer is the new state (the older switches follow it). */
export function useSaveNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: NotificationSettings) =>
      apiCall('PUT /api/notifications', { body: settings }),
    onSuccess: ({ success: _success, message: _message, ...answer }) => {
      queryClient.setQueryData(queryKeys.notifications, answer);
      // The profile's messages and end-of-term switches show two of these choices.
      void queryClient.invalidateQueries({ queryKey: queryKeys.messageMails });
      void queryClient.invalidateQueries({ queryKey: queryKeys.termEndMail });
    },
  });
}
