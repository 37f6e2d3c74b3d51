import type { NotificationSettings, QuietHours } from '@campus-books/common/notification.schemas';

/** The form's values: the choices, and quiet hours kept while switched off (so a re-check restores them). */
export interface NotificationFormValues {
  kinds: NotificationSettings['kinds'];
  isQuiet: boolean;
  quietHours: QuietHours;
}

/** What the page suggests when a student first turns quiet hours on. */
const SUGGESTED_QUIET_HOURS: QuietHours = { start: '22:00', end: '07:00' };

export function notificationFormValues(settings: NotificationSettings): NotificationFormValues {
  return {
    kinds: settings.kinds,
    isQuiet: settings.quietHours !== null,
    quietHours: settings.quietHours ?? SUGGESTED_QUIET_HOURS,
  };
}

/** The body the form sends: quiet hours only when switched on. */
export function notificationSettingsBody(values: NotificationFormValues): NotificationSettings {
  return { kinds: values.kinds, quietHours: values.isQuiet ? values.quietHours : null };
}
