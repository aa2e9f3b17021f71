import { vi } from 'vitest';

/** A JSON answer as the API sends it. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** What `GET /functions/v1/shop-status` answers in the stubbed browser; open unless a test says otherwise. */
let shopStatusAnswer: { body: unknown; status: number } = { body: { mode: 'open' }, status: 200 };
let shopStatusReadCount = 0;
export function stubShopStatus(body: unknown, status = 200) {
  shopStatusAnswer = { body, status };
}
/** How many times the page has read the shop's status since `stubFetch`. */
export function shopStatusReads(): number {
  return shopStatusReadCount;
}

/**
 * Replaces the browser's fetch; each call gets the next answer (a Response, an error to throw, or a
 * promise). The order page's shop-status read is answered apart (see `stubShopStatus`), so the queue
 * and the recorded calls are the checkout and status requests only.
 */
export function stubFetch(...answers: Array<Response | Error | Promise<Response>>) {
  const queue = [...answers];
  const fetchMock = vi.fn<typeof fetch>(async () => {
    const next = queue.shift();
    if (next === undefined) throw new Error('Unexpected fetch: no answer queued');
    if (next instanceof Error) throw next;
    return next;
  });
  shopStatusReadCount = 0;
  const answered: typeof fetch = async (input, init) => {
    if (!String(input).includes('/functions/v1/shop-status')) return fetchMock(input, init);
    shopStatusReadCount += 1;
    return jsonResponse(shopStatusAnswer.body, shopStatusAnswer.status);
  };
  vi.stubGlobal('fetch', answered);
  return fetchMock;
}

/** A promise the test resolves when it chooses, to look at the page while a request is running. */
export { deferred } from '../../support/deferred';

/** The parts of a Window our code touches on the new payment tab. */
export interface FakeTab {
  closed: boolean;
  opener: unknown;
  location: { href: string };
  close: ReturnType<typeof vi.fn>;
  /** A real (jsdom) document, so what the page writes into the tab can be read back. */
  document: Document;
}

/**
 * Fakes `window.open`. jsdom cannot open or navigate windows, so the new tab is a plain object
 * with the few members our code uses; the cast is confined to this test double.
 */
export function stubWindowOpen(result: 'tab' | 'blocked' = 'tab') {
  const tab: FakeTab = {
    closed: false,
    opener: window,
    location: { href: 'about:blank' },
    close: vi.fn(() => {
      tab.closed = true;
    }),
    document: document.implementation.createHTMLDocument(''),
  };
  const open = vi
    .spyOn(window, 'open')
    .mockImplementation(() => (result === 'tab' ? (tab as unknown as Window) : null));
  return { open, tab };
}

/** Replaces window.location so a same-tab navigation can be observed (jsdom cannot navigate). */
export function stubLocationAssign() {
  const assign = vi.fn<(url: string | URL) => void>();
  vi.stubGlobal('location', { ...window.location, origin: window.location.origin, assign });
  return assign;
}

/** The parsed request of the nth fetch call. */
export function requestOf(fetchMock: ReturnType<typeof stubFetch>, index = 0) {
  const call = fetchMock.mock.calls[index];
  if (!call) throw new Error(`fetch was not called ${index + 1} time(s)`);
  const [input, init] = call;
  return {
    url: String(input),
    method: init?.method ?? 'GET',
    headers: new Headers(init?.headers),
    body: typeof init?.body === 'string' ? init.body : undefined,
  };
}
