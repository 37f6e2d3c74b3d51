import type { ApiMessage } from '@campus-books/common/api';
import type { ConversationReportInput } from '@campus-books/common/moderation.schemas';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/** POST /api/conversations/{id}/report: once per student and conversation (409 for a second). */
export function reportConversation({
  conversationId,
  ...body
}: ConversationReportInput & { conversationId: string }): Promise<ApiMessage> {
  return apiCall('POST /api/conversations/:id/report', { params: { id: conversationId }, body });
}

export function useReportConversation() {
  return useMutation({ mutationFn: reportConversation });
}
