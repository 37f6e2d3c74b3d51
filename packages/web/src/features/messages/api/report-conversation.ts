import type { ApiMessage } from '@campus-books/common/api';
import type { ConversationReportInput } from '@campus-books/common/moderation.schemas';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/conversations/{id}/report: once per student and conversation (409 for a second). */
export function reportConversation({
  conversationId,
  ...body
}: ConversationReportInput & { conversationId: string }): Promise<ApiMessage> {
  return apiRequest<ApiMessage>(`/api/conversations/${encodeURIComponent(conversationId)}/report`, {
    body,
  });
}

export function useReportConversation() {
  return useMutation({ mutationFn: reportConversation });
}
