import type { Page } from '@playwright/test';
import { expect, signInBrowser, test } from '../../src/fixtures';
import { expectNoAxeViolations, expectTapTarget, screenshot } from '../../src/page-check';

/**
 * Headless Chromium cannot reach a real push service, so these tests replace the browser's
 * PushManager with a stand-in (an init script): it hands out a subscription with a push-service
 * endpoint and real-sized keys, and records what the page asked of it. The permission prompt is
 * answered by the stand-in too. What the server stored is read through the API.
 */
interface StandInOptions {
  /** What the browser's permission prompt answers (or what it already is). */
  permission: NotificationPermission;
  /** No Web Push in this browser at all. */
  unsupported?: boolean;
}

interface StandInRecord {
  subscribeCalls: { userVisibleOnly: boolean; applicationServerKey: string }[];
  unsubscribed: string[];
}

async function installPushStandIn(page: Page, options: StandInOptions): Promise<void> {
  await page.addInitScript((opts: StandInOptions) => {
    const STORE = 'e2e-push-stand-in';
    if (opts.unsupported) {
      // @ts-expect-error: a browser without Web Push
      delete window.PushManager;
      return;
    }
    const b64 = (bytes: Uint8Array) =>
      btoa(String.fromCharCode(...bytes))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '');
    const random = (length: number, first?: number) => {
      const bytes = crypto.getRandomValues(new Uint8Array(length));
      if (first !== undefined) bytes[0] = first;
      return bytes;
    };
    const record: StandInRecord = JSON.parse(
      sessionStorage.getItem(`${STORE}:record`) ?? '{"subscribeCalls":[],"unsubscribed":[]}',
    );
    const saveRecord = () => sessionStorage.setItem(`${STORE}:record`, JSON.stringify(record));
    (window as unknown as { pushStandIn: StandInRecord }).pushStandIn = record;

    interface Stored {
      endpoint: string;
      p256dh: string;
      auth: string;
      key: string;
    }
    const load = (): Stored | null => JSON.parse(localStorage.getItem(STORE) ?? 'null');
    const toSubscription = (stored: Stored) => {
      const keyBytes = Uint8Array.from(
        atob(stored.key.replace(/-/g, '+').replace(/_/g, '/')),
        (c) => c.charCodeAt(0),
      );
      return {
        endpoint: stored.endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: keyBytes.buffer },
        toJSON: () => ({
          endpoint: stored.endpoint,
          expirationTime: null,
          keys: { p256dh: stored.p256dh, auth: stored.auth },
        }),
        unsubscribe: async () => {
          localStorage.removeItem(STORE);
          record.unsubscribed.push(stored.endpoint);
          saveRecord();
          return true;
        },
      };
    };
    PushManager.prototype.getSubscription = async function () {
      const stored = load();
      return (stored ? toSubscription(stored) : null) as unknown as PushSubscription;
    };
    PushManager.prototype.subscribe = async function (init?: PushSubscriptionOptionsInit) {
      const key = b64(new Uint8Array(init?.applicationServerKey as ArrayBuffer));
      record.subscribeCalls.push({
        userVisibleOnly: init?.userVisibleOnly === true,
        applicationServerKey: key,
      });
      saveRecord();
      const stored: Stored = {
        endpoint: `https://fcm.googleapis.com/fcm/send/e2e-stand-in-${b64(random(12))}`,
        p256dh: b64(random(65, 4)),
        auth: b64(random(16)),
        key,
      };
      localStorage.setItem(STORE, JSON.stringify(stored));
      return toSubscription(stored) as unknown as PushSubscription;
    };
    let permission: NotificationPermission =
      opts.permission === 'denied' ? 'denied' : load() ? 'granted' : 'default';
    Object.defineProperty(Notification, 'permission', { get: () => permission });
    Notification.requestPermission = async () => {
      permission = opts.permission;
      return permission;
    };
  }, options);
}

const pushSwitch = (page: Page) =>
  page.getByRole('switch', { name: 'Notifications on this device' });

test('notifications on this device, through a push-service stand-in: on by keyboard, alerts chosen, off on both sides', async ({
  page,
  makeUser,
}, testInfo) => {
  const student = await makeUser('pusher');
  const { publicKey } = await student.api.call('GET /api/push/key');
  const stored = () => student.api.call('GET /api/push/subscriptions');
  const standIn = () =>
    page.evaluate(() => (window as unknown as { pushStandIn: StandInRecord }).pushStandIn);
  await installPushStandIn(page, { permission: 'granted' });
  await signInBrowser(page, student, '/profile');

  const control = pushSwitch(page);
  await expect(control).toHaveAttribute('aria-checked', 'false');
  await expect(control).toBeEnabled();
  await expectTapTarget(control);

  await test.step('turned on from the keyboard: subscribed with the server’s key, stored by the server', async () => {
    await control.focus();
    await page.keyboard.press('Space');
    await expect(control).toHaveAttribute('aria-checked', 'true');
    const { subscribeCalls } = await standIn();
    expect(subscribeCalls).toEqual([{ userVisibleOnly: true, applicationServerKey: publicKey }]);
    const { subscriptions } = await stored();
    expect(subscriptions).toEqual([
      { endpoint: expect.stringContaining('e2e-stand-in-'), alerts: false },
    ]);
  });

  await test.step('also for alert matches: the server keeps the choice, and a reload shows it', async () => {
    const alerts = page.getByRole('checkbox', { name: 'Also for alert matches' });
    await expect(alerts).not.toBeChecked();
    // A click, not check(): the box is controlled, and shows the choice once the change is under
    // way (a render after the click), which check()'s immediate look can miss.
    await alerts.click();
    await expect(alerts).toBeChecked();
    await expect
      .poll(async () => (await stored()).subscriptions.map((s) => s.alerts))
      .toEqual([true]);
    await page.reload();
    await expect(pushSwitch(page)).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByRole('checkbox', { name: 'Also for alert matches' })).toBeChecked();
    // The same device: no second subscription was made.
    expect((await standIn()).subscribeCalls).toHaveLength(1);
    await expectNoAxeViolations(page);
    await screenshot(page, testInfo, 'profile-push-on');
  });

  await test.step('turned off: the server forgets the device and the browser unsubscribes', async () => {
    const { subscriptions } = await stored();
    await pushSwitch(page).click();
    await expect(pushSwitch(page)).toHaveAttribute('aria-checked', 'false');
    await expect(page.getByRole('checkbox', { name: 'Also for alert matches' })).toHaveCount(0);
    expect((await stored()).subscriptions).toEqual([]);
    expect((await standIn()).unsubscribed).toEqual([subscriptions[0]!.endpoint]);
  });
});

test('notifications blocked by the browser (a push-service stand-in): the switch is off and says how to allow them', async ({
  page,
  makeUser,
}) => {
  const student = await makeUser('pushblocked');
  await installPushStandIn(page, { permission: 'denied' });
  await signInBrowser(page, student, '/profile');
  await expect(pushSwitch(page)).toBeDisabled();
  await expect(pushSwitch(page)).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByText('Notifications are blocked for this site')).toBeVisible();
  await expect(page.getByText('set Notifications to Allow')).toBeVisible();
  await expectNoAxeViolations(page);
});

test('a browser without Web Push (the stand-in script removes PushManager) is told so, and how an iPhone gets it', async ({
  page,
  makeUser,
}) => {
  const student = await makeUser('pushless');
  await installPushStandIn(page, { permission: 'default', unsupported: true });
  await signInBrowser(page, student, '/profile');
  await expect(pushSwitch(page)).toBeDisabled();
  await expect(
    page.getByText('This browser cannot show notifications from this site'),
  ).toBeVisible();
  await expect(page.getByText('add Campus Books to the Home Screen')).toBeVisible();
});

test('a student who dismisses the permission prompt stays off (a push-service stand-in)', async ({
  page,
  makeUser,
}) => {
  const student = await makeUser('pushdismiss');
  await installPushStandIn(page, { permission: 'default' });
  await signInBrowser(page, student, '/profile');
  await pushSwitch(page).click();
  await expect(pushSwitch(page)).toHaveAttribute('aria-checked', 'false');
  await expect(pushSwitch(page)).toBeEnabled();
  expect((await student.api.call('GET /api/push/subscriptions')).subscriptions).toEqual([]);
});
