import type { FastifyInstance, FastifyReply } from 'fastify';
import { tooManyAttempts, type LimitHook } from '../../plugins/rate-limit';

/**
 * The conversations' two counts per account, the same for every route that sends or opens
 * (conversations.routes.ts, offer-sets.routes.ts): messages and offers a minute (a preHandler), and
 * conversations opened an hour (`takeConversationOpen`, called once a conversation is to be opened:
 * a refusal is the 429 with Retry-After).
 */
export function conversationLimits(app: FastifyInstance): {
  messageLimit: LimitHook;
  takeConversationOpen: (reply: FastifyReply, userId: string) => Promise<void>;
} {
  const { conversationsPerHour, messagesPerMinute } = app.config.conversations;
  return {
    messageLimit: app.limitAttempts({
      name: 'conversation-message:account',
      max: messagesPerMinute,
      windowMs: 60_000,
      keyOf: (request) => request.session?.user.id,
    }),
    takeConversationOpen: async (reply, userId) => {
      const hit = await app.limits.take(
        'conversation-open:account',
        userId,
        conversationsPerHour,
        60 * 60_000,
      );
      if (!hit.allowed) throw tooManyAttempts(reply, hit);
    },
  };
}
