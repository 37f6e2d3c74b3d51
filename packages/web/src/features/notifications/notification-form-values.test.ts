import { describe, expect, it } from 'vitest';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  notificationSettingsSchema,
} from '@campus-books/common/notification.schemas';
import { notificationFormValues, notificationSettingsBody } from './notification-form-values';

describe('the notifications form', () => {
  it('shows the choices as they are, suggesting 22:00–07:00 until quiet hours are on', () => {
    const values = notificationFormValues(DEFAULT_NOTIFICATION_SETTINGS);
    expect(values).toMatchObject({ isQuiet: false, quietHours: { start: '22:00', end: '07:00' } });
    expect(notificationSettingsBody(values)).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
  });

  it('sends quiet hours only when they are on, as the server reads them', () => {
    const values = notificationFormValues(DEFAULT_NOTIFICATION_SETTINGS);
    const body = notificationSettingsBody({
      ...values,
      isQuiet: true,
      quietHours: { start: '23:00', end: '06:30' },
    });
    expect(notificationSettingsSchema.parse(body).quietHours).toEqual({
      start: '23:00',
      end: '06:30',
    });
    // Equal times are refused by the shared schema, under the quiet hours.
    const same = notificationSettingsBody({
      ...values,
      isQuiet: true,
      quietHours: { start: '22:00', end: '22:00' },
    });
    const issue = notificationSettingsSchema.safeParse(same).error?.issues[0];
    expect(issue?.path).toEqual(['quietHours', 'end']);
  });
});
