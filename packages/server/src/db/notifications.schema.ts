import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, users } from './schema';

/**
 * A student's choices of what reaches them (features/notifications): per kind, mail and push, and
 * quiet hours as local times of the campus's zone. No row: the defaults. The mail of messages and
 * of the end of term keep their own older homes (`users.message_mails`, the term-end subscribers).
 */
export const notificationSettings = pgTable('notification_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** `{ kind: { mail?: boolean, push?: boolean } }`: what is absent is the default. */
  choices: jsonb('choices').$type<Record<string, { mail?: boolean; push?: boolean }>>().notNull(),
  /** 'HH:MM'; both set or neither. */
  quietStart: text('quiet_start'),
  quietEnd: text('quiet_end'),
  updatedAt: updatedAt(),
});

/**
 * A mail or push held by quiet hours, sent with the others of its channel as one digest when
 * they end (features/notifications/digest.ts).
 */
export const heldNotifications = pgTable(
  'held_notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    channel: text('channel', { enum: ['mail', 'push'] }).notNull(),
    /** A mail's subject, a push's title. */
    title: text('title').notNull(),
    /** A mail's text; a push's page (a path of this site). */
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('held_notifications_user_channel_idx').on(t.userId, t.channel, t.createdAt)],
);
