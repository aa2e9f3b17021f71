import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

// web/public/admin-push.js as a service worker runs it: its push and notificationclick listeners
// on a stand-in `self`, fed the events a browser would give them.
const SOURCE = readFileSync(resolve('web/public/admin-push.js'), 'utf8');

interface Shown {
  title: string;
  options: { body: string; tag?: string; data: { url: string } };
}

function worker(windows: Array<{ url: string }> = []) {
  const listeners = new Map<string, (event: unknown) => void>();
  const shown: Shown[] = [];
  const opened: string[] = [];
  const navigated: string[] = [];
  const clientWindows = windows.map((window) => ({
    url: window.url,
    focus: async () => undefined,
    navigate: async (url: string) => {
      navigated.push(url);
    },
  }));
  const self = {
    location: { origin: 'https://shop.test' },
    addEventListener: (type: string, listener: (event: unknown) => void) => listeners.set(type, listener),
    registration: {
      showNotification: async (title: string, options: Shown['options']) => {
        shown.push({ title, options });
      },
    },
    clients: {
      matchAll: async () => clientWindows,
      openWindow: async (url: string) => {
        opened.push(url);
      },
    },
  };
  runInNewContext(SOURCE, { self, URL });
  const fire = async (type: string, event: Record<string, unknown>) => {
    const waits: Array<Promise<unknown>> = [];
    listeners.get(type)?.({ ...event, waitUntil: (promise: Promise<unknown>) => waits.push(promise) });
    await Promise.all(waits);
  };
  return { fire, shown, opened, navigated };
}

const pushOf = (value: unknown) => ({ data: { json: () => value } });

describe('the admin worker’s push handlers', () => {
  it('shows the shop’s push with its title and body, tagged by reference', async () => {
    // Prepare
    const w = worker();

    // Act
    await w.fire(
      'push',
      pushOf({
        kind: 'order',
        reference: 'AB12CD34EF56',
        title: 'New order',
        body: 'AB12CD34EF56: 6 bottles, £30.00, dispatch Monday 14 December',
        url: '/admin?order=AB12CD34EF56',
      }),
    );

    // Assess
    expect(w.shown).toEqual([
      {
        title: 'New order',
        options: expect.objectContaining({
          body: 'AB12CD34EF56: 6 bottles, £30.00, dispatch Monday 14 December',
          tag: 'AB12CD34EF56',
          data: { url: '/admin?order=AB12CD34EF56' },
        }),
      },
    ]);
  });

  it('a payload that is not the shop’s still shows a notification, which opens the admin only', async () => {
    // Prepare
    const w = worker();

    // Act
    await w.fire('push', pushOf({ title: 'x', body: 'y', reference: 'r', url: 'https://evil.test/' }));

    // Assess
    expect(w.shown[0]?.title).toBe('Live Aquatics');
    expect(w.shown[0]?.options.data).toEqual({ url: '/admin' });
  });

  it('a tap opens /admin?order=… in a new window when none of the admin is open', async () => {
    // Prepare
    const w = worker();
    let closed = false;

    // Act
    await w.fire('notificationclick', {
      notification: { data: { url: '/admin?order=AB12CD34EF56' }, close: () => (closed = true) },
    });

    // Assess
    expect(closed).toBe(true);
    expect(w.opened).toEqual(['https://shop.test/admin?order=AB12CD34EF56']);
  });

  it('a tap moves an open admin window to the order instead of opening another', async () => {
    // Prepare
    const w = worker([{ url: 'https://shop.test/admin?view=shop' }]);

    // Act
    await w.fire('notificationclick', {
      notification: { data: { url: '/admin?order=AB12CD34EF56' }, close: () => undefined },
    });

    // Assess
    expect(w.navigated).toEqual(['https://shop.test/admin?order=AB12CD34EF56']);
    expect(w.opened).toEqual([]);
  });
});
