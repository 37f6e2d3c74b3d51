import {
  DEFAULT_NOTIFICATION_SETTINGS,
  NOTIFICATION_KINDS,
  type NotificationKind,
  type NotificationSettings,
} from '@campus-books/common/notification.schemas';
import type { Db } from '../../db/database';
import { findUserById, setMessageMails } from '../accounts/users.repository';
import { isTermEndSubscriber, setTermEndSubscription } from '../shelf/term-end.repository';
import { findStoredChoices, saveStoredChoices, setStoredChoice } from './notifications.repository';

/**
 * A student's choices, read in one place. Two mails keep their older homes, so the routes that
 * set them before the choices existed stay true: the mail of messages is `users.message_mails`,
 * the end-of-term mail is the term-end subscription; the rest is `notification_settings`.
 */
export async function loadNotificationSettings(
  db: Db,
  userId: string,
): Promise<NotificationSettings> {
  const [stored, user, term] = await Promise.all([
    findStoredChoices(db, userId),
    findUserById(db, userId),
    isTermEndSubscriber(db, userId),
  ]);
  const kinds = { ...DEFAULT_NOTIFICATION_SETTINGS.kinds };
  for (const kind of NOTIFICATION_KINDS) {
    kinds[kind] = { ...kinds[kind], ...stored?.choices[kind] };
  }
  kinds.messages = { ...kinds.messages, mail: user?.messageMails ?? true };
  kinds.term = { ...kinds.term, mail: term };
  const quietHours =
    stored?.quietStart && stored.quietEnd
      ? { start: stored.quietStart, end: stored.quietEnd }
      : null;
  return { kinds, quietHours };
}

/** Writes the whole of a student's choices, each where it lives, in one transaction. */
export async function saveNotificationSettings(
  db: Db,
  userId: string,
  settings: NotificationSettings,
): Promise<void> {
  await db.transaction(async (tx) => {
    await saveStoredChoices(tx, userId, {
      choices: settings.kinds,
      quietStart: settings.quietHours?.start ?? null,
      quietEnd: settings.quietHours?.end ?? null,
    });
    await setMessageMails(tx, userId, settings.kinds.messages.mail);
    await setTermEndSubscription(tx, userId, settings.kinds.term.mail);
  });
}

/** Turns off the mails of one kind, and nothing else (a mail's one-click unsubscribe). */
export async function stopMails(db: Db, userId: string, kind: NotificationKind): Promise<void> {
  if (kind === 'messages') await setMessageMails(db, userId, false);
  else if (kind === 'term') await setTermEndSubscription(db, userId, false);
  else await setStoredChoice(db, userId, kind, 'mail', false);
}
