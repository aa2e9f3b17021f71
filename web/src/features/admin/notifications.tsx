import { useEffect, useState } from 'react';
import type { AdminApi } from './admin-api';

/** The admin's service worker (ADR 0055, 0056); `cache` matches CACHE in web/public/admin-sw.js. */
export const ADMIN_WORKER = { url: '/admin-sw.js', scope: '/admin', cache: 'admin-v1' } as const;

/** Registers the admin's worker on /admin only (ADR 0055); without service workers the admin works online. */
export function useAdminWorker(): void {
  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    void navigator.serviceWorker
      .register(ADMIN_WORKER.url, { scope: ADMIN_WORKER.scope })
      .catch(() => undefined);
  }, []);
}

type State =
  | { kind: 'checking' }
  | { kind: 'unsupported' }
  | { kind: 'off'; message?: string }
  | { kind: 'on'; message?: string }
  | { kind: 'working' };

const UNSUPPORTED = 'This browser cannot show notifications from the admin.';
const BLOCKED =
  "Notifications are blocked for this site: allow them in the browser's site settings, then turn them on here.";

function supported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** The VAPID public key (base64url) as the bytes PushManager.subscribe takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const text = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** This device's subscription, when the worker is registered and subscribed; nothing is registered here. */
async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration(ADMIN_WORKER.scope);
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** Asks the browser's permission, subscribes this device with the shop's key and saves it with the API. */
async function subscribeDevice(api: AdminApi): Promise<State> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return { kind: 'off', message: BLOCKED };
  const key = await api.pushKey();
  if (!key.ok) return { kind: 'off', message: key.message };
  if (key.value.publicKey === null)
    return { kind: 'off', message: 'Notifications are not set up for this shop yet.' };
  try {
    const registration = await navigator.serviceWorker.register(ADMIN_WORKER.url, {
      scope: ADMIN_WORKER.scope,
    });
    const subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(key.value.publicKey),
    });
    const saved = await api.pushSubscribe(subscription.toJSON() as Parameters<AdminApi['pushSubscribe']>[0]);
    if (!saved.ok) return { kind: 'off', message: saved.message };
    return { kind: 'on', message: 'Notifications are on for this device.' };
  } catch {
    return { kind: 'off', message: UNSUPPORTED };
  }
}

/** Forgets this device's subscription with the API first, so no push is sent to a dead endpoint. */
async function unsubscribeDevice(api: AdminApi): Promise<State> {
  const subscription = await currentSubscription().catch(() => null);
  if (subscription !== null) {
    const removed = await api.pushUnsubscribe({ endpoint: subscription.endpoint });
    if (!removed.ok) return { kind: 'on', message: removed.message };
    await subscription.unsubscribe().catch(() => false);
  }
  return { kind: 'off', message: 'Notifications are off for this device.' };
}

/** "Notifications on this device"; the browser's permission is asked only on the click. */
export function NotificationsControl({ api }: { api: AdminApi }) {
  const [state, setState] = useState<State>({ kind: 'checking' });

  useEffect(() => {
    if (!supported()) {
      setState({ kind: 'unsupported' });
      return;
    }
    let active = true;
    void currentSubscription()
      .catch(() => null)
      .then((subscription) => {
        const on = subscription !== null && Notification.permission === 'granted';
        if (active) setState({ kind: on ? 'on' : 'off' });
      });
    return () => {
      active = false;
    };
  }, []);

  const toggle = async (on: boolean) => {
    setState({ kind: 'working' });
    setState(await (on ? unsubscribeDevice(api) : subscribeDevice(api)));
  };

  if (state.kind === 'checking') return null;
  return (
    <section className="card admin-notifications" aria-labelledby="admin-notifications-heading">
      <h2 id="admin-notifications-heading">Notifications on this device</h2>
      <p>A new order, order request or failed Direct Debit shows here; a tap opens it. Emails still come.</p>
      {state.kind === 'unsupported' ? (
        <p>{UNSUPPORTED}</p>
      ) : (
        <button
          type="button"
          className="button button--secondary"
          disabled={state.kind === 'working'}
          onClick={() => void toggle(state.kind === 'on')}
        >
          {state.kind === 'on' ? 'Turn off notifications' : 'Turn on notifications'}
        </button>
      )}
      {'message' in state && state.message !== undefined && (
        <p className="admin-report" role="status">
          {state.message}
        </p>
      )}
    </section>
  );
}
