import { CONVERSATION_MESSAGES as M } from '@campus-books/common/conversation.schemas';
import type { TrustConfig } from '../../config/config';
import type { UserRow } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { isModerator } from '../moderation/moderators';
import {
  findOpenConversationReports,
  logConversationModeration,
} from './conversation-reports.repository';
import { findConversationOf, isConversationId } from './conversations.repository';
import type { ConversationDeps } from './conversations.service';
import { findPhotoMessage } from './message-photos.repository';

export const PHOTO_NOT_FOUND = 'Photo not found';

/**
 * Whether `viewer` may see a photo of the conversation: a participant, when a message of it carries
 * the photo (a suspended student's photos only to themselves, as their messages); a campus
 * moderator, while a report on the conversation is open, the read written to the audit log as
 * their read of the thread is. Anything else is a 404 that says nothing of the photo's existence.
 */
export async function assertMayViewPhoto(
  deps: ConversationDeps & { trust: Pick<TrustConfig, 'moderatorEmails'> },
  viewer: UserRow,
  conversationId: string,
  imageId: string,
): Promise<void> {
  if (!isConversationId(conversationId)) throw notFound(M.conversationNotFound);
  const message = await findPhotoMessage(deps.db, conversationId, imageId);
  if (await findConversationOf(deps.db, conversationId, viewer.id)) {
    if (!message || (message.senderSuspended && message.senderId !== viewer.id)) {
      throw notFound(PHOTO_NOT_FOUND);
    }
    return;
  }
  if (isModerator(deps.trust, viewer)) {
    await deps.db.transaction(async (tx) => {
      const open = await findOpenConversationReports(tx, conversationId);
      if (open.length === 0 || !message) throw notFound(PHOTO_NOT_FOUND);
      await logConversationModeration(tx, viewer, 'read_conversation', conversationId);
    });
    return;
  }
  throw notFound(PHOTO_NOT_FOUND);
}
