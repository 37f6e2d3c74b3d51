import { describe, expect, it } from 'vitest';
import type { PushPayload } from '@campus-books/common/push.schemas';
import { FALLBACK_NOTIFICATION, handleNotificationClick, handlePush } from './sw-push';

const ORIGIN = 'https://books.richmond.edu';

/** A fake `push` event and registration: what was shown, and what the event waited for. */
async function push(body: string | null) {
  const shown: { title: string; options: NotificationOptions | undefined }[] = [];
  const waited: Promise<unknown>[] = [];
  const event = {
    data: body === null ? null : ({ text: () => body } as PushMessageData),
    waitUntil: (promise: Promise<unknown>) => waited.push(promise),
  };
  const registration = {
    showNotification: async (title: string, options?: NotificationOptions) => {
      shown.push({ title, options });
    },
  };
  handlePush(event, registration, ORIGIN);
  await Promise.all(waited);
  expect(waited).toHaveLength(1);
  return shown;
}

interface FakeWindow {
  url: string;
  focused: boolean;
  focus: () => Promise<FakeWindow>;
}

/** A fake `notificationclick` event and clients: which window was focused or opened. */
async function click(data: unknown, openUrls: string[]) {
  const windows: FakeWindow[] = openUrls.map((url) => {
    const client: FakeWindow = {
      url,
      focused: false,
      focus: async () => {
        client.focused = true;
        return client;
      },
    };
    return client;
  });
  const opened: string[] = [];
  const waited: Promise<unknown>[] = [];
  let closed = false;
  const event = {
    notification: { data, close: () => (closed = true) } as unknown as Notification,
    waitUntil: (promise: Promise<unknown>) => waited.push(promise),
  };
  const matchOptions: unknown[] = [];
  const clients = {
    matchAll: async (options?: unknown) => {
      matchOptions.push(options);
      return windows as unknown as ReadonlyArray<WindowClient>;
    },
    openWindow: async (url: string | URL) => {
      opened.push(String(url));
      return null;
    },
  } as unknown as Pick<Clients, 'matchAll' | 'openWindow'>;
  handleNotificationClick(event, clients, ORIGIN);
  await Promise.all(waited);
  return {
    closed,
    opened,
    focused: windows.filter((w) => w.focused).map((w) => w.url),
    matchOptions,
  };
}

describe('the service worker shows each push as a notification', () => {
  it('shows the payload’s title, a line for its kind, its tag, and keeps its url for the tap', async () => {
    const payload: PushPayload = {
      kind: 'message',
      title: 'New message about Organic Chemistry',
      url: '/messages/4f1c2d3e-0000-4000-8000-000000000001',
      tag: 'conversation:4f1c2d3e-0000-4000-8000-000000000001',
    };
    const [shown, ...more] = await push(JSON.stringify(payload));
    expect(more).toHaveLength(0);
    expect(shown!.title).toBe('New message about Organic Chemistry');
    expect(shown!.options).toMatchObject({
      body: 'Tap to read it.',
      tag: 'conversation:4f1c2d3e-0000-4000-8000-000000000001',
      data: { url: '/messages/4f1c2d3e-0000-4000-8000-000000000001' },
      icon: '/campus-icons/icon-192.png',
    });
  });

  it('uses a body the payload carries, and each kind’s own line otherwise', async () => {
    const [withBody] = await push(
      JSON.stringify({ kind: 'offer', title: 'T', url: '/messages/1', tag: 'x', body: 'B' }),
    );
    expect(withBody!.options?.body).toBe('B');
    const [alert] = await push(
      JSON.stringify({
        kind: 'alert',
        title: 'New for your alert: Calculus',
        url: '/listing/l1',
        tag: 'listing:l1',
      }),
    );
    expect(alert!.options).toMatchObject({
      body: 'Tap to see the listing.',
      data: { url: '/listing/l1' },
    });
  });

  it('always shows something: an empty, unreadable or odd payload gives the inbox notification', async () => {
    for (const body of [null, '', 'not json', '42', 'null', '{"title":""}']) {
      const [shown, ...more] = await push(body);
      expect(more, String(body)).toHaveLength(0);
      expect(shown!.title, String(body)).toBe(FALLBACK_NOTIFICATION.title);
      expect(shown!.options?.data, String(body)).toEqual({ url: '/messages' });
    }
  });

  it('never leads a tap to another site', async () => {
    for (const url of ['https://evil.example/x', '//evil.example/x', 'javascript:alert(1)', 42]) {
      const [shown] = await push(JSON.stringify({ kind: 'message', title: 'T', url, tag: 't' }));
      expect(shown!.options?.data, String(url)).toEqual({ url: '/messages' });
    }
  });
});

describe('a tap on a notification opens its page', () => {
  it('focuses a window of the app already at that page', async () => {
    const result = await click({ url: '/messages/c1' }, [
      `${ORIGIN}/search`,
      `${ORIGIN}/messages/c1`,
    ]);
    expect(result.closed).toBe(true);
    expect(result.focused).toEqual([`${ORIGIN}/messages/c1`]);
    expect(result.opened).toEqual([]);
    expect(result.matchOptions).toEqual([{ type: 'window', includeUncontrolled: true }]);
  });

  it('opens the page in a new window when none is there (another page of the app is left alone)', async () => {
    const result = await click({ url: '/listing/l1' }, [`${ORIGIN}/create-listing`]);
    expect(result.closed).toBe(true);
    expect(result.focused).toEqual([]);
    expect(result.opened).toEqual([`${ORIGIN}/listing/l1`]);
  });

  it('opens the inbox for a notification without a page of this site', async () => {
    for (const data of [undefined, null, { url: 'https://evil.example/' }, 'x']) {
      const result = await click(data, []);
      expect(result.opened, JSON.stringify(data)).toEqual([`${ORIGIN}/messages`]);
    }
  });
});
