// The merchant's notifications in the /admin service worker (ADR 0056): a push from the shop
// (shared/merchant-push.ts's payload) is shown, and a tap opens its /admin?order=… in a window
// of the admin, or a new one. Plain script, so any worker takes it: importScripts('/admin-push.js')
// in a classic worker, `import '/admin-push.js'` in a module one.

/** A payload the shop sent, or undefined: only an /admin path of this origin is ever opened. */
function readAdminPush(data) {
  let value;
  try {
    value = data?.json();
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { reference, title, body, url } = value;
  const texts = [reference, title, body, url].every((text) => typeof text === 'string');
  return texts && url.startsWith('/admin') ? value : undefined;
}

self.addEventListener('push', (event) => {
  const message = readAdminPush(event.data);
  // A push must show something (userVisibleOnly): one that is not ours says where to look.
  const title = message?.title ?? 'Live Aquatics';
  const options = {
    body: message?.body ?? 'Something new in the admin.',
    tag: message?.reference,
    data: { url: message?.url ?? '/admin' },
    icon: '/icon-192.png',
    badge: '/icon-192.png',
  };
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = event.notification.data?.url ?? '/admin';
  const url = new URL(path.startsWith('/admin') ? path : '/admin', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const admin = windows.find((client) => new URL(client.url).pathname === '/admin');
      if (admin !== undefined && 'navigate' in admin) return admin.focus().then(() => admin.navigate(url));
      return self.clients.openWindow(url);
    }),
  );
});
