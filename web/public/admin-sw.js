// The /admin service worker (ADR 0055, 0056), registered by the admin page on every load with scope
// /admin: the push handlers, and the admin shell and the week's last API answers for offline use.
importScripts('/admin-push.js');

const CACHE = 'admin-v1';
// The session routes carry the refresh-token cookie and mint tokens: never stored, never replayed.
const SESSION = '/functions/v1/admin/session/';
const SAVED_AT = 'x-admin-saved-at';
const OFFLINE_COPY = 'x-admin-offline-copy';

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names
          .filter((name) => name.startsWith('admin-') && name !== CACHE)
          .map((name) => caches.delete(name)),
      );
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  // Actions (POST) go to the network only: replaying one from a cache would lie about it.
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith(SESSION)) return;
  if (request.mode === 'navigate') {
    if (url.pathname !== '/admin' && !url.pathname.startsWith('/admin/')) return;
    // Every /admin address is the same shell: one copy, whatever the query.
    event.respondWith(networkFirst(request, '/admin'));
    return;
  }
  event.respondWith(networkFirst(request, request));
});

/** The network's answer, a copy kept when it is a 2xx; offline, the copy marked with when it was saved. */
async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === 'basic') await cache.put(key, await stamped(response.clone()));
    return response;
  } catch (error) {
    const saved = await cache.match(key, { ignoreVary: true });
    if (saved === undefined) throw error;
    const headers = new Headers(saved.headers);
    headers.set(OFFLINE_COPY, saved.headers.get(SAVED_AT) ?? '');
    return new Response(await saved.blob(), { status: saved.status, statusText: saved.statusText, headers });
  }
}

async function stamped(response) {
  const headers = new Headers(response.headers);
  headers.set(SAVED_AT, new Date().toISOString());
  return new Response(await response.blob(), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}
