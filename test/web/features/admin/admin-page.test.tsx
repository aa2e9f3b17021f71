import { act, render, screen, waitFor, within } from '@testing-library/react';
import { StrictMode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdminProvider } from '../../../../web/src/app/admin-provider';
import { AdminRoutes } from '../../../../web/src/app/admin-routes';
import { jsonResponse, stubLocationAssign } from '../../helpers/fake-browser';
import { renderAdmin, TEST_CONFIG } from '../../helpers/render-app';

// The admin page against a fake network: the sign-in settings, the admin's session routes and
// the admin API are answered by URL; everything else is the real page.

const SIGN_IN_URL = 'https://auth.shop.test';
const API = 'https://api.shop.test/functions/v1/admin';

function idToken(claims: Record<string, unknown>) {
  const part = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, '');
  return `${part({ alg: 'RS256' })}.${part(claims)}.signature`;
}

const TOKENS = {
  id_token: idToken({ email: 'merchant@live-aquatics.test' }),
  access_token: 'access-1',
  expires_in: 1800,
};

/** What the session routes answer: never a refresh token (it stays in the HttpOnly cookie). */
const sessionTokens = (tokens: { id_token: string; access_token: string; expires_in: number } = TOKENS) => ({
  idToken: tokens.id_token,
  accessToken: tokens.access_token,
  expiresIn: tokens.expires_in,
});

function order(overrides: Record<string, unknown> = {}) {
  return {
    kind: 'order',
    reference: 'a1b2c3d4e5f6',
    status: 'paid',
    dispatchDate: '2026-11-30',
    bottles: 3,
    unitPricePence: 325,
    subtotalPence: 975,
    shippingPence: 495,
    totalPence: 1470,
    customerName: 'Jane Doe',
    customerEmail: 'jane@example.com',
    customerPhone: '07700 900123',
    deliveryAddress: '1 Pond Lane\nLeeds',
    postcode: 'LS1 4AP',
    createdAt: '2026-11-25T10:00:00.000Z',
    paidAt: '2026-11-25T10:00:05.000Z',
    placedWhilePaused: false,
    refundablePence: 1470,
    emails: [
      { kind: 'confirmation', state: 'sent', sentAt: '2026-11-25T10:00:06.000Z' },
      { kind: 'merchantNotice', state: 'sent', sentAt: '2026-11-25T10:00:07.000Z' },
    ],
    history: [{ at: '2026-11-25T10:00:05.000Z', actor: 'Stripe', action: 'paid' }],
    payment: {
      checkoutSessionId: 'cs_test_a1b2c3d4e5f6',
      paymentIntentId: 'pi_123',
      livemode: false,
      dashboardUrl: 'https://dashboard.stripe.com/test/payments/pi_123',
    },
    ...overrides,
  };
}

const SECOND = order({
  reference: 'zz9yy8xx7ww6',
  customerName: 'Sam Smith',
  customerEmail: 'sam@example.com',
  postcode: 'M1 1AE',
  bottles: 6,
  totalPence: 2445,
});

const STATUS = {
  shop: { mode: 'open' },
  today: '2026-11-25',
  next: {
    date: '2026-11-30',
    capacity: 20,
    reserved: 0,
    sold: 9,
    left: 11,
    orders: 2,
    bottles: 9,
    references: ['a1b2c3d4e5f6', 'zz9yy8xx7ww6'],
  },
  overdue: [],
  later: [],
  requestsWaiting: 0,
};

type Handler = (request: {
  url: string;
  method: string;
  body: string;
  headers: Headers;
}) => Response | Promise<Response>;

/** Answers fetch by "METHOD url-without-origin-query"; records every call. */
function stubNetwork(routes: Record<string, Handler>) {
  const calls: Array<{ url: string; method: string; body: string; headers: Headers }> = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const body = init?.body instanceof URLSearchParams ? init.body.toString() : String(init?.body ?? '');
    const request = { url, method, body, headers: new Headers(init?.headers) };
    calls.push(request);
    const path = url.split('?')[0] ?? url;
    const handler =
      routes[`${method} ${path}`] ??
      (path.endsWith('/functions/v1/shop-status') ? () => jsonResponse({ mode: 'open' }) : undefined);
    if (!handler) throw new Error(`Unexpected fetch: ${method} ${url}`);
    return handler(request);
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

const baseRoutes: Record<string, Handler> = {
  'GET https://api.shop.test/admin-config.json': () =>
    jsonResponse({ signInUrl: SIGN_IN_URL, clientId: 'admin-client' }),
  [`POST ${API}/session/start`]: () => jsonResponse(sessionTokens()),
  // No cookie yet: a page load without a code is signed out.
  [`POST ${API}/session/refresh`]: () => jsonResponse({ error: 'Not signed in.' }, 401),
  [`POST ${API}/session/sign-out`]: () => jsonResponse({ revoked: true }),
  [`GET ${API}/status`]: () => jsonResponse(STATUS),
  [`GET ${API}/orders`]: () => jsonResponse({ records: [order(), SECOND] }),
  [`GET ${API}/order`]: () => jsonResponse({ record: order() }),
  [`GET ${API}/weather`]: () =>
    jsonResponse({
      day: '2026-11-30',
      state: 'not yet',
      knownFrom: '2026-11-28T18:00:00.000Z',
      summary: 'The weather for Monday 30 November is checked from 18:00 on Saturday 28 November.',
    }),
};

let codes = 0;
/** Arrives back from the identity provider with a fresh code, as after signing in there. */
function signedIn(returnTo = '/admin') {
  codes += 1;
  sessionStorage.setItem(
    'admin-sign-in',
    JSON.stringify({ state: `state-${codes}`, verifier: 'verifier-1', returnTo }),
  );
  return renderAdmin(`/admin?code=code-${codes}&state=state-${codes}`);
}

/** Chooses the whole refund's reason: none is chosen for the merchant. */
async function chooseRefundReason(user: ReturnType<typeof signedIn>['user'], words: string) {
  const form = await screen.findByRole('form', { name: 'Refund' }, { timeout: 5000 });
  await user.selectOptions(within(form).getByRole('combobox', { name: 'Reason' }), words);
}

beforeEach(() => {
  stubLocationAssign();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('admin sign-in', () => {
  it('signed out: a sign-in button that goes to the identity provider with PKCE (S256) and keeps only the verifier and state, in sessionStorage', async () => {
    stubNetwork(baseRoutes);
    const assign = stubLocationAssign();
    const { user } = renderAdmin('/admin?view=orders');

    expect(await screen.findByRole('heading', { name: 'Merchant sign-in' }, { timeout: 5000 })).toBeVisible();
    // Outside the build the stylesheet has no URL, so no link (the build's own: admin-csp.spec.ts).
    expect(document.querySelector('link[rel="stylesheet"]')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    const target = new URL(String(assign.mock.calls[0]?.[0]));
    expect(`${target.origin}${target.pathname}`).toBe('https://auth.shop.test/oauth2/authorize');
    const pending = JSON.parse(sessionStorage.getItem('admin-sign-in') ?? '{}');
    expect(Object.fromEntries(target.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'admin-client',
      redirect_uri: 'https://api.shop.test/admin',
      scope: 'openid email',
      state: pending.state,
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
    });
    expect(pending.returnTo).toBe('/admin?view=orders');
    // The challenge is SHA-256 of the verifier, base64url.
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(pending.verifier));
    const expected = btoa(String.fromCharCode(...new Uint8Array(digest)))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    expect(target.searchParams.get('code_challenge')).toBe(expected);
    expect(localStorage.length).toBe(0);
  });

  it('back from the identity provider: trades the code and its verifier at the session route, returns where the merchant was, and sends the ID token to the API; no token is stored', async () => {
    const calls = stubNetwork(baseRoutes);
    const { router } = signedIn('/admin?view=shop');

    expect(await screen.findByRole('heading', { name: 'Shop & capacity' }, { timeout: 5000 })).toBeVisible();
    expect(router.location.search).toBe('?view=shop');
    const start = calls.find((call) => call.url === `${API}/session/start`);
    expect(start?.headers.get('Content-Type')).toBe('application/json');
    expect(JSON.parse(start?.body ?? '{}')).toEqual({
      code: expect.stringMatching(/^code-\d+$/),
      redirectUri: 'https://api.shop.test/admin',
      codeVerifier: 'verifier-1',
    });
    expect(calls.some((call) => call.url.startsWith(SIGN_IN_URL))).toBe(false);
    await waitFor(() => expect(calls.some((call) => call.url === `${API}/status`)).toBe(true));
    const status = calls.find((call) => call.url === `${API}/status`);
    expect(status?.headers.get('Authorization')).toBe(`Bearer ${TOKENS.id_token}`);
    expect(screen.getByText('merchant@live-aquatics.test')).toBeVisible();
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
  });

  it('exchanges a code once, even when React runs the page’s effects twice (StrictMode, as admin-main.tsx renders)', async () => {
    const calls = stubNetwork(baseRoutes);
    sessionStorage.setItem(
      'admin-sign-in',
      JSON.stringify({ state: 'strict', verifier: 'v', returnTo: '/admin' }),
    );
    render(
      <StrictMode>
        <AdminProvider config={TEST_CONFIG}>
          <MemoryRouter initialEntries={['/admin?code=strict-code&state=strict']}>
            <AdminRoutes />
          </MemoryRouter>
        </AdminProvider>
      </StrictMode>,
    );

    expect(await screen.findByRole('heading', { name: 'This week' }, { timeout: 5000 })).toBeVisible();
    expect(calls.filter((call) => call.url === `${API}/session/start`)).toHaveLength(1);
  });

  it('a code whose state is not the one this tab sent is not exchanged', async () => {
    const calls = stubNetwork(baseRoutes);
    sessionStorage.setItem(
      'admin-sign-in',
      JSON.stringify({ state: 'mine', verifier: 'v', returnTo: '/admin' }),
    );
    renderAdmin('/admin?code=stolen&state=theirs');

    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(
      'That sign-in link has expired. Please sign in again.',
    );
    expect(screen.getByRole('heading', { name: 'Merchant sign-in' })).toBeVisible();
    expect(calls.some((call) => call.url.endsWith('/session/start'))).toBe(false);
  });

  it('renews the tokens at the session route (the cookie carries the refresh token) before they expire', async () => {
    const calls = stubNetwork({
      ...baseRoutes,
      [`POST ${API}/session/start`]: () => jsonResponse(sessionTokens({ ...TOKENS, expires_in: 30 })),
      [`POST ${API}/session/refresh`]: () =>
        jsonResponse(
          sessionTokens({ ...TOKENS, id_token: idToken({ email: 'merchant@live-aquatics.test', n: 2 }) }),
        ),
    });
    signedIn();

    expect(
      await screen.findByRole('heading', { name: 'Next dispatch: Monday 30 November' }, { timeout: 5000 }),
    ).toBeVisible();
    const refreshes = calls.filter((call) => call.url === `${API}/session/refresh`);
    expect(refreshes.map((call) => [call.method, call.body])).toContainEqual(['POST', '{}']);
    const status = calls.find((call) => call.url === `${API}/status`);
    expect(status?.headers.get('Authorization')).not.toBe(`Bearer ${TOKENS.id_token}`);
  });

  it('a reload (or a new tab, or a link from an email) signs in from the cookie, without the provider', async () => {
    const calls = stubNetwork({
      ...baseRoutes,
      [`POST ${API}/session/refresh`]: () => jsonResponse(sessionTokens()),
    });
    const assign = stubLocationAssign();
    renderAdmin('/admin?order=a1b2c3d4e5f6');

    expect(await screen.findByText('Jane Doe', {}, { timeout: 5000 })).toBeVisible();
    expect(assign).not.toHaveBeenCalled();
    const order = calls.find((call) => call.url.startsWith(`${API}/order?`));
    expect(order?.headers.get('Authorization')).toBe(`Bearer ${TOKENS.id_token}`);
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
  });

  it('a 401 from the API ends the session: the sign-in again, with why', async () => {
    stubNetwork({ ...baseRoutes, [`GET ${API}/status`]: () => jsonResponse({ error: 'Unauthorized' }, 401) });
    signedIn();

    expect(await screen.findByRole('heading', { name: 'Merchant sign-in' }, { timeout: 5000 })).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent('Your session has ended. Please sign in again.');
  });

  it('sign-out revokes the refresh token at the session route, then goes to the provider’s logout, which returns to /admin', async () => {
    const calls = stubNetwork(baseRoutes);
    const assign = stubLocationAssign();
    const { user } = signedIn();

    await user.click(await screen.findByRole('button', { name: 'Sign out' }, { timeout: 5000 }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith(
        'https://auth.shop.test/logout?client_id=admin-client&logout_uri=https%3A%2F%2Fapi.shop.test%2Fadmin',
      ),
    );
    const signOuts = calls.filter((call) => call.url === `${API}/session/sign-out`);
    expect(signOuts.map((call) => [call.method, call.body])).toEqual([['POST', '{}']]);
  });

  it('sign out on every device asks the session route to revoke every device’s sign-in', async () => {
    const calls = stubNetwork(baseRoutes);
    const assign = stubLocationAssign();
    const { user } = signedIn();

    await user.click(
      await screen.findByRole('button', { name: 'Sign out on every device' }, { timeout: 5000 }),
    );
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    const signOuts = calls.filter((call) => call.url === `${API}/session/sign-out`);
    expect(signOuts.map((call) => JSON.parse(call.body))).toEqual([{ everywhere: true }]);
  });

  it('sign-out still leaves the page when the provider cannot be reached to revoke', async () => {
    stubNetwork({
      ...baseRoutes,
      [`POST ${API}/session/sign-out`]: () => Promise.reject(new TypeError('Failed to fetch')),
    });
    const assign = stubLocationAssign();
    const { user } = signedIn();

    await user.click(await screen.findByRole('button', { name: 'Sign out' }, { timeout: 5000 }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith(
        'https://auth.shop.test/logout?client_id=admin-client&logout_uri=https%3A%2F%2Fapi.shop.test%2Fadmin',
      ),
    );
  });
});

describe('an account outside the merchants group (403)', () => {
  it('says the account may not use the admin, who can add it, and offers the sign-out instead of a retry', async () => {
    stubNetwork({
      ...baseRoutes,
      [`GET ${API}/status`]: () =>
        jsonResponse({ error: 'This account is not a merchant of this shop.' }, 403),
      [`GET ${API}/orders`]: () =>
        jsonResponse({ error: 'This account is not a merchant of this shop.' }, 403),
    });
    const assign = stubLocationAssign();
    const { user } = signedIn();

    expect(
      await screen.findByRole('heading', { name: 'Not a merchant account' }, { timeout: 5000 }),
    ).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent(
      "This account (merchant@live-aquatics.test) may not use the shop's admin: ask the shop's operator to add it with npm run orders -- merchant add merchant@live-aquatics.test, or sign out and sign in as a merchant.",
    );
    expect(screen.queryByText(/please try again/)).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Admin' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith(
        'https://auth.shop.test/logout?client_id=admin-client&logout_uri=https%3A%2F%2Fapi.shop.test%2Fadmin',
      ),
    );
  });
});

describe("a request that did not come through the shop's address (403, not-through-cloudfront)", () => {
  it('says the set-up needs checking, keeps the merchant signed in and shows no not-a-merchant page', async () => {
    stubNetwork({
      ...baseRoutes,
      [`GET ${API}/status`]: () => jsonResponse({ error: 'Forbidden.', code: 'not-through-cloudfront' }, 403),
    });
    signedIn();

    expect(
      await screen.findByText(
        "The admin service refused this request because it did not come through the shop's own address. Open the admin from the shop's address; if this keeps happening, the shop's set-up needs checking (npm run doctor).",
        undefined,
        { timeout: 5000 },
      ),
    ).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Not a merchant account' })).not.toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Admin' })).toBeVisible();
  });
});

describe('this week', () => {
  it('shows the next dispatch day, its orders, bottles and capacity left, and the day’s orders', async () => {
    const calls = stubNetwork(baseRoutes);
    signedIn();

    const day = await screen.findByRole(
      'heading',
      { name: 'Next dispatch: Monday 30 November' },
      { timeout: 5000 },
    );
    const card = day.closest('.card');
    if (!(card instanceof HTMLElement)) throw new Error('no card');
    expect(within(card).getByText('Orders').nextElementSibling).toHaveTextContent('2');
    expect(within(card).getByText('Bottles').nextElementSibling).toHaveTextContent('9');
    expect(within(card).getByText('Capacity left').nextElementSibling).toHaveTextContent('11 bottles of 20');
    expect(within(card).getByRole('button', { name: 'Packing slips' })).toBeVisible();
    expect(within(card).getByRole('button', { name: 'Click & Drop CSV' })).toBeVisible();
    const list = await screen.findByRole('list', { name: 'Orders for Monday 30 November' });
    expect(within(list).getByRole('link', { name: 'a1b2c3d4e5f6' })).toHaveAttribute(
      'href',
      '/admin?order=a1b2c3d4e5f6',
    );
    expect(list).toHaveTextContent('Jane Doe · LS1 4AP');
    expect(list).toHaveTextContent('3 bottles · £14.70 · dispatch Monday 30 November');
    expect(calls.find((call) => call.url.startsWith(`${API}/orders`))?.url).toBe(
      `${API}/orders?dispatch=2026-11-30&status=paid`,
    );
  });

  it('lists every later day holding orders: a Tuesday a delay moved 3 orders to', async () => {
    stubNetwork({
      ...baseRoutes,
      [`GET ${API}/status`]: () =>
        jsonResponse({
          ...STATUS,
          later: [
            {
              date: '2026-12-01',
              capacity: null,
              reserved: 0,
              sold: 18,
              left: null,
              orders: 3,
              bottles: 18,
              references: ['aaaaaaaaaaa1', 'aaaaaaaaaaa2', 'aaaaaaaaaaa3'],
            },
          ],
        }),
    });
    signedIn();

    const later = await screen.findByRole('region', { name: 'Later days with orders' }, { timeout: 5000 });
    expect(within(later).getByRole('listitem')).toHaveTextContent('Tuesday 1 December: 3 orders, 18 bottles');
    expect(within(later).getByRole('link', { name: 'Tuesday 1 December' })).toHaveAttribute(
      'href',
      '/admin?view=orders&status=paid&dispatch=2026-12-01',
    );
  });

  it('marks the chosen orders dispatched in one call, says what was emailed, and a second press sends nothing twice', async () => {
    let release: () => void = () => {};
    const calls = stubNetwork({
      ...baseRoutes,
      [`POST ${API}/orders/dispatch`]: () =>
        new Promise((done) => {
          release = () =>
            done(
              jsonResponse({
                results: [
                  {
                    reference: 'a1b2c3d4e5f6',
                    changed: true,
                    email: 'sent',
                    status: 'dispatched',
                    record: order({ status: 'dispatched', trackingNumber: 'AB123456789GB' }),
                  },
                  {
                    reference: 'zz9yy8xx7ww6',
                    refused: 'Order zz9yy8xx7ww6 was refunded: it cannot be dispatched.',
                  },
                ],
              }),
            );
        }),
    });
    const { user } = signedIn();

    await user.click(
      await screen.findByRole('checkbox', { name: 'Choose a1b2c3d4e5f6 (Jane Doe)' }, { timeout: 5000 }),
    );
    await user.click(screen.getByRole('checkbox', { name: 'Choose zz9yy8xx7ww6 (Sam Smith)' }));
    // A number for the first order only: the second goes without one.
    await user.type(
      screen.getByRole('textbox', { name: 'Tracking number for a1b2c3d4e5f6' }),
      'ab 123456789 gb',
    );
    // It asks first, naming who is emailed.
    await user.click(screen.getByRole('button', { name: 'Mark 2 dispatched' }));
    expect(
      screen.getByText(
        'Mark 2 orders dispatched? Each customer is emailed that it is on its way: Jane Doe (jane@example.com), Sam Smith (sam@example.com).',
      ),
    ).toBeVisible();
    await user.dblClick(screen.getByRole('button', { name: 'Mark 2 dispatched and email' }));
    expect(screen.getByRole('button', { name: 'Marking dispatched…' })).toBeDisabled();
    release();

    expect(
      await screen.findByText('1 order marked dispatched. 1 refused: nothing done to it.'),
    ).toBeVisible();
    expect(
      screen.getByText(
        'a1b2c3d4e5f6 marked dispatched (tracking AB123456789GB); dispatch email sent to jane@example.com.',
      ),
    ).toBeVisible();
    expect(
      screen.getByText('zz9yy8xx7ww6: Order zz9yy8xx7ww6 was refunded: it cannot be dispatched.'),
    ).toBeVisible();
    const dispatches = calls.filter((call) => call.url === `${API}/orders/dispatch`);
    expect(dispatches).toHaveLength(1);
    expect(JSON.parse(dispatches[0]?.body ?? '')).toEqual({
      references: ['a1b2c3d4e5f6', 'zz9yy8xx7ww6'],
      trackingNumbers: { a1b2c3d4e5f6: 'ab 123456789 gb' },
    });
  });
});

describe('an order’s page', () => {
  it('shows everything the customer gave, the emails sent and when, the Stripe Dashboard link and the history', async () => {
    const calls = stubNetwork(baseRoutes);
    signedIn('/admin?order=A1B2C3D4E5F6');

    expect(
      await screen.findByRole('heading', { name: 'Order a1b2c3d4e5f6' }, { timeout: 5000 }),
    ).toBeVisible();
    expect(calls.find((call) => call.url.startsWith(`${API}/order?`))?.url).toBe(
      `${API}/order?reference=A1B2C3D4E5F6`,
    );
    expect(screen.getByText('Name').nextElementSibling).toHaveTextContent('Jane Doe');
    expect(screen.getByText('Email').nextElementSibling).toHaveTextContent('jane@example.com');
    expect(screen.getByText('Phone').nextElementSibling).toHaveTextContent('07700 900123');
    expect(screen.getByText('Delivery address').nextElementSibling).toHaveTextContent('1 Pond Lane Leeds');
    expect(screen.getByText('Postcode').nextElementSibling).toHaveTextContent('LS1 4AP');
    expect(screen.getByText('Price').nextElementSibling).toHaveTextContent(
      '3 bottles × £3.25 = £9.75, delivery £4.95, total £14.70',
    );
    expect(screen.getByRole('link', { name: 'Open in the Stripe Dashboard' })).toHaveAttribute(
      'href',
      'https://dashboard.stripe.com/test/payments/pi_123',
    );
    expect(screen.getByText('Order confirmation: sent Wed 25 Nov, 10:00')).toBeVisible();
    expect(screen.getByText('Notice to the shop: sent Wed 25 Nov, 10:00')).toBeVisible();
    expect(screen.getByText(/Wed 25 Nov, 10:00: paid by/)).toHaveTextContent(
      'Wed 25 Nov, 10:00: paid by Stripe',
    );
  });

  it('two presses faster than the page can redraw (before the button is disabled) still send one dispatch', async () => {
    const calls = stubNetwork({
      ...baseRoutes,
      [`POST ${API}/orders/dispatch`]: () =>
        jsonResponse({
          results: [
            {
              reference: 'a1b2c3d4e5f6',
              changed: true,
              email: 'sent',
              status: 'dispatched',
              record: order({ status: 'dispatched' }),
            },
          ],
        }),
    });
    signedIn('/admin?order=a1b2c3d4e5f6');

    const button = await screen.findByRole('button', { name: 'Mark dispatched' }, { timeout: 5000 });
    // Both clicks in one batch: React has not re-rendered the button disabled between them.
    act(() => {
      button.click();
      button.click();
    });

    expect(
      await screen.findByText(
        'a1b2c3d4e5f6 marked dispatched. Dispatch email sent to jane@example.com.',
        {},
        { timeout: 5000 },
      ),
    ).toBeVisible();
    expect(calls.filter((call) => call.url === `${API}/orders/dispatch`)).toHaveLength(1);
  });

  it("corrects an order's delivery details: sends what was typed, shows the new address and the email", async () => {
    const calls = stubNetwork({
      ...baseRoutes,
      [`POST ${API}/orders/address`]: () =>
        jsonResponse({
          reference: 'a1b2c3d4e5f6',
          changed: true,
          email: 'sent',
          record: order({ deliveryAddress: '9 Heron Way\nLeeds', postcode: 'LS2 7EY' }),
        }),
    });
    const { user } = signedIn('/admin?order=a1b2c3d4e5f6');

    // Folded behind a button, then asked about before the customer is emailed.
    await user.click(await screen.findByRole('button', { name: 'Correct the address' }, { timeout: 5000 }));
    const address = screen.getByLabelText('New address');
    await user.clear(address);
    await user.type(address, '9 Heron Way{Enter}Leeds');
    await user.clear(screen.getByLabelText('New postcode'));
    await user.type(screen.getByLabelText('New postcode'), 'ls2 7ey');
    await user.click(screen.getByRole('button', { name: 'Correct delivery details' }));
    expect(
      screen.getByText(
        'Change the delivery details of a1b2c3d4e5f6 to 9 Heron Way, Leeds, ls2 7ey, 07700 900123? Jane Doe (jane@example.com) is emailed the new details.',
      ),
    ).toBeVisible();
    expect(calls.some((call) => call.url === `${API}/orders/address`)).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Confirm and email' }));

    expect(
      await screen.findByText(
        'Delivery details of a1b2c3d4e5f6 corrected. Confirmation email sent to jane@example.com.',
        {},
        { timeout: 5000 },
      ),
    ).toBeVisible();
    const sent = calls.find((call) => call.url === `${API}/orders/address`);
    expect(JSON.parse(sent?.body ?? '{}')).toEqual({
      reference: 'a1b2c3d4e5f6',
      address: '9 Heron Way\nLeeds',
      postcode: 'ls2 7ey',
      phone: '07700 900123',
    });
    expect(screen.getByText('LS2 7EY')).toBeVisible();
    // Folded again once done, its result kept until dismissed.
    expect(screen.queryByLabelText('New address')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(/Delivery details of a1b2c3d4e5f6 corrected/)).toBeNull();
  });

  it('a tracking number the API refuses is shown by its field (400)', async () => {
    stubNetwork({
      ...baseRoutes,
      [`POST ${API}/orders/dispatch`]: () =>
        jsonResponse(
          {
            error: 'Check the tracking number.',
            fields: { trackingNumber: 'A tracking number is 8 to 40 letters or digits.' },
          },
          400,
        ),
    });
    const { user } = signedIn('/admin?order=a1b2c3d4e5f6');

    await user.type(await screen.findByLabelText('Tracking number (optional)', {}, { timeout: 5000 }), '!!');
    await user.click(screen.getByRole('button', { name: 'Mark dispatched' }));

    const field = await screen.findByLabelText('Tracking number (optional)');
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription('A tracking number is 8 to 40 letters or digits.');
    expect(screen.getByText('Check the tracking number.')).toBeVisible();
  });

  it('an action whose answer is lost says it may have been done and that pressing again is safe, not that nothing changed', async () => {
    stubNetwork({
      ...baseRoutes,
      [`POST ${API}/orders/dispatch`]: () => Promise.reject(new TypeError('Failed to fetch')),
      [`POST ${API}/orders/refund`]: () => jsonResponse({ error: 'Internal error.' }, 504),
    });
    const { user } = signedIn('/admin?order=a1b2c3d4e5f6');

    const lost =
      'The answer did not arrive, so the change may or may not have been made. Open the order or the week again to see; pressing again is safe, as nothing is done twice.';
    await user.click(await screen.findByRole('button', { name: 'Mark dispatched' }, { timeout: 5000 }));
    // Each action settles before the next is pressed, so a slow machine cannot interleave them.
    expect(await screen.findAllByText(lost, {}, { timeout: 5000 })).toHaveLength(1);
    await chooseRefundReason(user, 'Other');
    await user.click(screen.getByRole('button', { name: 'Refund…' }));
    await user.click(screen.getByRole('button', { name: 'Refund £14.70' }));

    await waitFor(() => expect(screen.getAllByText(lost)).toHaveLength(2), { timeout: 5000 });
    expect(screen.queryByText(/Nothing was changed/)).not.toBeInTheDocument();
  });

  it('a read that cannot reach the API says nothing was changed and to try again', async () => {
    stubNetwork({
      ...baseRoutes,
      [`GET ${API}/order`]: () => Promise.reject(new TypeError('Failed to fetch')),
    });
    signedIn('/admin?order=a1b2c3d4e5f6');

    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(
      'The admin service could not be reached. Nothing was changed; please try again.',
    );
  });

  it('refund asks first, naming the amount and the customer, then says what was refunded and emailed', async () => {
    const calls = stubNetwork({
      ...baseRoutes,
      [`POST ${API}/orders/refund`]: () =>
        jsonResponse({
          reference: 'a1b2c3d4e5f6',
          changed: true,
          refundId: 're_1',
          pence: 1470,
          email: 'sent',
          refundEmail: { state: 'sent', by: 'this run' },
          status: 'refunded',
          record: order({
            status: 'refunded',
            refundedAt: '2026-11-25T11:00:00.000Z',
            refundReason: 'supply',
          }),
        }),
    });
    const { user } = signedIn('/admin?order=a1b2c3d4e5f6');

    await chooseRefundReason(user, 'Supply problem');
    await user.click(screen.getByRole('button', { name: 'Refund…' }));
    expect(calls.some((call) => call.url.endsWith('/orders/refund'))).toBe(false);
    expect(
      screen.getByText('Refund £14.70 to Jane Doe (jane@example.com)? This cannot be undone.'),
    ).toBeVisible();
    await user.dblClick(screen.getByRole('button', { name: 'Refund £14.70' }));

    expect(
      await screen.findByText('£14.70 refunded to Jane Doe (re_1). Refund email sent to jane@example.com.'),
    ).toBeVisible();
    const refunds = calls.filter((call) => call.url === `${API}/orders/refund`);
    expect(refunds).toHaveLength(1);
    expect(JSON.parse(refunds[0]?.body ?? '')).toEqual({ reference: 'a1b2c3d4e5f6', reason: 'supply' });
    expect(screen.queryByRole('button', { name: /Refund/ })).not.toBeInTheDocument();
  });

  it('revokes the order page link after asking, once however often pressed, and says the new link was emailed', async () => {
    const calls = stubNetwork({
      ...baseRoutes,
      [`POST ${API}/orders/page-link`]: () =>
        jsonResponse({
          reference: 'a1b2c3d4e5f6',
          email: 'sent',
          record: order({
            emails: [
              { kind: 'confirmation', state: 'sent', sentAt: '2026-11-25T10:00:06.000Z' },
              { kind: 'pageLink', state: 'sent', sentAt: '2026-11-26T09:00:01.000Z' },
            ],
            history: [
              { at: '2026-11-25T10:00:05.000Z', actor: 'Stripe', action: 'paid' },
              {
                at: '2026-11-26T09:00:00.000Z',
                actor: 'packer@live-aquatics.test',
                action: 'page-link-revoked',
                detail: 'new link emailed to the customer',
              },
            ],
          }),
        }),
    });
    const { user } = signedIn('/admin?order=a1b2c3d4e5f6');

    await user.click(await screen.findByRole('button', { name: 'Revoke link…' }, { timeout: 5000 }));
    expect(calls.some((call) => call.url.endsWith('/orders/page-link'))).toBe(false);
    expect(
      screen.getByText(
        /^Revoke the order page link of .+\? The link in every email sent so far stops working, and Jane Doe \(jane@example\.com\) is emailed a new one\.$/,
      ),
    ).toBeVisible();
    await user.dblClick(screen.getByRole('button', { name: 'Revoke and send a new link' }));

    expect(
      await screen.findByText(/no longer opens\. New link email sent to jane@example\.com\.$/),
    ).toBeVisible();
    const revokes = calls.filter((call) => call.url === `${API}/orders/page-link`);
    expect(revokes).toHaveLength(1);
    expect(revokes[0]?.method).toBe('POST');
    expect(JSON.parse(revokes[0]?.body ?? '')).toEqual({ reference: 'a1b2c3d4e5f6' });
    expect(screen.getByText(/page-link-revoked \(new link emailed to the customer\) by/)).toBeVisible();
    expect(screen.getByText(/^New order page link: sent /)).toBeVisible();
  });

  it('says the old link is dead and the new one not emailed yet when another request holds its email', async () => {
    stubNetwork({
      ...baseRoutes,
      [`POST ${API}/orders/page-link`]: () =>
        jsonResponse({ reference: 'a1b2c3d4e5f6', email: 'not-sent', record: order() }),
    });
    const { user } = signedIn('/admin?order=a1b2c3d4e5f6');

    await user.click(await screen.findByRole('button', { name: 'Revoke link…' }, { timeout: 5000 }));
    await user.click(screen.getByRole('button', { name: 'Revoke and send a new link' }));

    expect(
      await screen.findByText(
        /no longer opens\. The new link email was not sent by this request \(another is sending it\): the order's emails below say when it has gone; if it does not, revoke again\.$/,
      ),
    ).toBeVisible();
    expect(screen.queryByText(/sent again/)).not.toBeInTheDocument();
  });

  it('after a part refund, the refund names what is left and says what was refunded', async () => {
    const partly = { partlyRefundedPence: 650, refundablePence: 820 };
    stubNetwork({
      ...baseRoutes,
      [`GET ${API}/order`]: () => jsonResponse({ record: order(partly) }),
      [`POST ${API}/orders/refund`]: () =>
        jsonResponse({
          reference: 'a1b2c3d4e5f6',
          changed: true,
          refundId: 're_2',
          pence: 820,
          email: 'sent',
          refundEmail: { state: 'sent', by: 'this run' },
          status: 'refunded',
          record: order({ ...partly, status: 'refunded', refundablePence: 0, refundReason: 'supply' }),
        }),
    });
    const { user } = signedIn('/admin?order=a1b2c3d4e5f6');

    await chooseRefundReason(user, 'Other');
    await user.click(screen.getByRole('button', { name: 'Refund…' }));
    expect(
      screen.getByText('Refund the remaining £8.20 to Jane Doe (jane@example.com)? This cannot be undone.'),
    ).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Refund the remaining £8.20' }));

    expect(
      await screen.findByText('£8.20 refunded to Jane Doe (re_2). Refund email sent to jane@example.com.'),
    ).toBeVisible();
  });

  it('a refused refund (409) is shown in the API’s words', async () => {
    stubNetwork({
      ...baseRoutes,
      [`POST ${API}/orders/refund`]: () =>
        jsonResponse({ error: 'Order A1B2C3D4E5F6 is already refunded (re_1): nothing was done.' }, 409),
    });
    const { user } = signedIn('/admin?order=a1b2c3d4e5f6');

    await chooseRefundReason(user, 'Other');
    await user.click(screen.getByRole('button', { name: 'Refund…' }));
    await user.click(screen.getByRole('button', { name: 'Refund £14.70' }));

    expect(
      await screen.findByText('Order A1B2C3D4E5F6 is already refunded (re_1): nothing was done.'),
    ).toBeVisible();
  });
});

describe('shop and capacity', () => {
  const capacity = {
    settings: { weekly: null, days: {} },
    rows: [
      {
        date: '2026-11-30',
        capacity: null,
        reserved: 0,
        sold: 9,
        left: null,
        orders: 2,
        bottles: 9,
        dispatchDay: true,
      },
      {
        date: '2026-12-07',
        capacity: null,
        reserved: 0,
        sold: 0,
        left: null,
        orders: 0,
        bottles: 0,
        dispatchDay: true,
      },
    ],
  };

  it('pauses with a message and resumes, saying what each did', async () => {
    const calls = stubNetwork({
      ...baseRoutes,
      [`GET ${API}/capacity`]: () => jsonResponse(capacity),
      [`POST ${API}/shop/pause`]: ({ body }) =>
        jsonResponse({
          settings: { mode: 'paused', message: JSON.parse(body).message },
          closed: ['cs_test_1'],
          paymentLinksKept: [],
          completedMeanwhile: [],
          failed: [],
        }),
      [`POST ${API}/shop/resume`]: () => jsonResponse({ settings: { mode: 'open' } }),
    });
    const { user } = signedIn('/admin?view=shop');

    await user.type(
      await screen.findByLabelText('Message to customers', {}, { timeout: 5000 }),
      'Back on Monday',
    );
    await user.click(screen.getByRole('button', { name: 'Pause the shop' }));
    expect(
      await screen.findByText(
        'The shop is paused. Customers see: “Back on Monday”. 1 unpaid checkout(s) closed. No emails sent.',
      ),
    ).toBeVisible();
    expect(JSON.parse(calls.find((call) => call.url === `${API}/shop/pause`)?.body ?? '')).toEqual({
      mode: 'paused',
      message: 'Back on Monday',
    });

    // While paused the filled button is the one that reopens; pausing again is the outlined one.
    expect(screen.getByRole('button', { name: 'Resume orders' })).toHaveClass('button--primary');
    expect(screen.getByRole('button', { name: 'Pause the shop' })).toHaveClass('button--secondary');
    expect(screen.getByRole('button', { name: 'Pause the shop' })).not.toHaveClass('button--primary');

    await user.click(screen.getByRole('button', { name: 'Resume orders' }));
    expect(
      await screen.findByText('The shop is open again: customers can order and pay. No emails sent.'),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Pause the shop' })).toHaveClass('button--primary');
  });

  it('a pause without a message shows the API’s message by the field, with no CLI flag in it', async () => {
    const calls = stubNetwork({
      ...baseRoutes,
      [`GET ${API}/capacity`]: () => jsonResponse(capacity),
      [`POST ${API}/shop/pause`]: () =>
        jsonResponse(
          {
            error: 'Write the message customers will see while the shop is paused.',
            fields: { message: 'Write the message customers will see while the shop is paused.' },
          },
          400,
        ),
    });
    const { user } = signedIn('/admin?view=shop');

    await user.click(await screen.findByRole('button', { name: 'Pause the shop' }, { timeout: 5000 }));

    const field = screen.getByLabelText('Message to customers');
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription(
      'Shown on the shop page, e.g. when you will be back. Write the message customers will see while the shop is paused.',
    );
    expect(screen.queryByText(/--message/)).not.toBeInTheDocument();
    expect(JSON.parse(calls.find((call) => call.url === `${API}/shop/pause`)?.body ?? '')).toEqual({
      mode: 'paused',
    });
  });

  it('takes order requests: the button sends mode requests and says what it did', async () => {
    const calls = stubNetwork({
      ...baseRoutes,
      [`GET ${API}/capacity`]: () => jsonResponse(capacity),
      [`POST ${API}/shop/pause`]: () =>
        jsonResponse({
          settings: { mode: 'requests' },
          closed: [],
          paymentLinksKept: [],
          completedMeanwhile: [],
          failed: [],
        }),
    });
    const { user } = signedIn('/admin?view=shop');

    await user.click(await screen.findByRole('radio', { name: 'Taking order requests' }, { timeout: 5000 }));
    await user.click(screen.getByRole('button', { name: 'Take requests' }));

    expect(await screen.findByText('The shop takes order requests. No emails sent.')).toBeVisible();
    expect(screen.getByText(/^Now:/).closest('p')).toHaveTextContent(
      'Now: Taking order requests: customers ask, and you send a payment link.',
    );
    const pauses = calls.filter((call) => call.url === `${API}/shop/pause`);
    expect(pauses).toHaveLength(1);
    expect(JSON.parse(pauses[0]?.body ?? '')).toEqual({ mode: 'requests' });
  });

  it('a day a delay moved orders to is a row with its orders and bottles, and not a day to set', async () => {
    stubNetwork({
      ...baseRoutes,
      [`GET ${API}/capacity`]: () =>
        jsonResponse({
          ...capacity,
          rows: [
            {
              date: '2026-11-30',
              capacity: 0,
              reserved: 0,
              sold: 0,
              left: 0,
              orders: 0,
              bottles: 0,
              dispatchDay: true,
            },
            {
              date: '2026-12-01',
              capacity: null,
              reserved: 0,
              sold: 18,
              left: null,
              orders: 3,
              bottles: 18,
              dispatchDay: false,
            },
            {
              date: '2026-12-07',
              capacity: null,
              reserved: 0,
              sold: 0,
              left: null,
              orders: 0,
              bottles: 0,
              dispatchDay: true,
            },
          ],
        }),
    });
    signedIn('/admin?view=shop');

    const row = await screen.findByRole('row', { name: /Tuesday 1 December/ }, { timeout: 5000 });
    expect(row).toHaveTextContent('Tuesday 1 December3 orders, 18 bottlesnone180–');
    expect(
      within(screen.getByLabelText('Day'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Every dispatch day', 'Monday 30 November', 'Monday 7 December']);
  });

  it('sets a day’s capacity; a 400 names the field', async () => {
    let first = true;
    const calls = stubNetwork({
      ...baseRoutes,
      [`GET ${API}/capacity`]: () => jsonResponse(capacity),
      [`POST ${API}/capacity`]: () => {
        if (first) {
          first = false;
          return jsonResponse(
            {
              error: 'Check the bottles.',
              fields: { bottles: 'Bottles is a whole number from 0 to 10000.' },
            },
            400,
          );
        }
        return jsonResponse({
          ...capacity,
          date: '2026-12-07',
          oversold: [],
          rows: [
            capacity.rows[0],
            {
              date: '2026-12-07',
              capacity: 12,
              reserved: 0,
              sold: 0,
              left: 12,
              orders: 0,
              bottles: 0,
              dispatchDay: true,
            },
          ],
        });
      },
    });
    const { user } = signedIn('/admin?view=shop');

    await user.selectOptions(await screen.findByLabelText('Day', {}, { timeout: 5000 }), 'Monday 7 December');
    await user.type(screen.getByLabelText('Bottles'), '12');
    await user.click(screen.getByRole('button', { name: 'Set capacity' }));
    expect(await screen.findByLabelText('Bottles')).toHaveAccessibleDescription(
      'Leave empty for no limit. Bottles is a whole number from 0 to 10000.',
    );

    await user.click(screen.getByRole('button', { name: 'Set capacity' }));
    expect(await screen.findByText('Monday 7 December: at most 12 bottles. No emails sent.')).toBeVisible();
    const sets = calls.filter((call) => call.url === `${API}/capacity` && call.method === 'POST');
    expect(JSON.parse(sets[1]?.body ?? '')).toEqual({ date: '2026-12-07', bottles: 12 });
    expect(screen.getByRole('row', { name: /Monday 7 December/ })).toHaveTextContent(
      'Monday 7 December120012',
    );
  });
});

describe('weather thresholds', () => {
  it('shows the thresholds in words, sets all four; a 400 names the field, a 409 says why', async () => {
    const answers = [
      jsonResponse(
        {
          error: 'Check the thresholds.',
          fields: { atRiskBelow: 'At risk below is a temperature from −30 to 50 °C.' },
        },
        400,
      ),
      jsonResponse(
        {
          error:
            'Weather thresholds must read: at risk below ≤ watch below < watch above ≤ at risk above, each between −30 and 50 °C.',
        },
        409,
      ),
      jsonResponse({ thresholds: { atRiskBelow: -2, watchBelow: 4, watchAbove: 22.5, atRiskAbove: 28 } }),
    ];
    const calls = stubNetwork({
      ...baseRoutes,
      [`GET ${API}/capacity`]: () => jsonResponse({ settings: { weekly: null, days: {} }, rows: [] }),
      [`GET ${API}/weather/thresholds`]: () =>
        jsonResponse({ thresholds: { atRiskBelow: 0, watchBelow: 4, watchAbove: 24, atRiskAbove: 28 } }),
      [`POST ${API}/weather/thresholds`]: () => answers.shift() ?? jsonResponse({}, 500),
    });
    const { user } = signedIn('/admin?view=shop');

    const atRiskBelow = await screen.findByLabelText('At risk below (°C)', {}, { timeout: 5000 });
    expect(
      screen.getByText('At risk below 0 °C or above 28 °C; watch below 4 °C or above 24 °C.'),
    ).toBeVisible();
    expect(atRiskBelow).toHaveValue(0);
    await user.clear(atRiskBelow);
    await user.click(screen.getByRole('button', { name: 'Set thresholds' }));
    expect(await screen.findByLabelText('At risk below (°C)')).toHaveAccessibleDescription(
      'At risk below is a temperature from −30 to 50 °C.',
    );

    await user.type(atRiskBelow, '-2');
    await user.clear(screen.getByLabelText('Watch above (°C)'));
    await user.type(screen.getByLabelText('Watch above (°C)'), '22.5');
    await user.click(screen.getByRole('button', { name: 'Set thresholds' }));
    expect(
      await screen.findByText(
        'Weather thresholds must read: at risk below ≤ watch below < watch above ≤ at risk above, each between −30 and 50 °C.',
      ),
    ).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Set thresholds' }));
    expect(
      await screen.findByText(
        'At risk below -2 °C or above 28 °C; watch below 4 °C or above 22.5 °C. No emails sent.',
      ),
    ).toBeVisible();
    const sets = calls.filter((call) => call.url === `${API}/weather/thresholds` && call.method === 'POST');
    expect(sets.map((call) => JSON.parse(call.body))).toEqual([
      { atRiskBelow: null, watchBelow: 4, watchAbove: 24, atRiskAbove: 28 },
      { atRiskBelow: -2, watchBelow: 4, watchAbove: 22.5, atRiskAbove: 28 },
      { atRiskBelow: -2, watchBelow: 4, watchAbove: 22.5, atRiskAbove: 28 },
    ]);
  });
});

describe('more actions', () => {
  it('names the delay form for its day, so it is a form landmark a screen reader can find', async () => {
    stubNetwork(baseRoutes);
    signedIn();

    const form = await screen.findByRole('form', { name: 'Delay Monday 30 November' }, { timeout: 5000 });
    expect(form).toContainElement(screen.getByLabelText('New dispatch day'));
  });

  it('delays the day to a later one for a reason, saying what moved and what was emailed', async () => {
    const calls = stubNetwork({
      ...baseRoutes,
      [`POST ${API}/orders/delay`]: () =>
        jsonResponse({
          from: '2026-11-30',
          to: '2026-12-01',
          moved: ['a1b2c3d4e5f6', 'zz9yy8xx7ww6'],
          emailed: ['a1b2c3d4e5f6', 'zz9yy8xx7ww6'],
        }),
    });
    const { user } = signedIn();

    await user.type(await screen.findByLabelText('New dispatch day', {}, { timeout: 5000 }), '2026-12-01');
    await user.selectOptions(screen.getByLabelText('Reason'), 'Supply');
    await user.click(screen.getByRole('button', { name: 'Delay the day' }));
    await user.click(screen.getByRole('button', { name: 'Confirm' }));

    expect(
      await screen.findByText(
        '2 order(s) moved from Monday 30 November to Tuesday 1 December; 2 delay email(s) sent to the customers.',
      ),
    ).toBeVisible();
    expect(JSON.parse(calls.find((call) => call.url === `${API}/orders/delay`)?.body ?? '')).toEqual({
      from: '2026-11-30',
      to: '2026-12-01',
      reason: 'supply',
    });
  });

  it('asks before it emails, then keeps its result on screen (the day now empty) until dismissed', async () => {
    let delayed = false;
    const calls = stubNetwork({
      ...baseRoutes,
      [`GET ${API}/status`]: () =>
        jsonResponse(
          delayed ? { ...STATUS, next: { ...STATUS.next, orders: 0, bottles: 0, references: [] } } : STATUS,
        ),
      [`GET ${API}/orders`]: () => jsonResponse({ records: delayed ? [] : [order(), SECOND] }),
      [`POST ${API}/orders/delay`]: () => {
        delayed = true;
        return jsonResponse({
          from: '2026-11-30',
          to: '2026-12-01',
          moved: ['a1b2c3d4e5f6', 'zz9yy8xx7ww6'],
          emailed: ['a1b2c3d4e5f6', 'zz9yy8xx7ww6'],
        });
      },
    });
    const { user } = signedIn();

    await user.type(await screen.findByLabelText('New dispatch day', {}, { timeout: 5000 }), '2026-12-01');
    await user.click(screen.getByRole('button', { name: 'Delay the day' }));

    expect(screen.getByText('Email 2 customers that their order moves to Tuesday 1 December?')).toBeVisible();
    expect(calls.filter((call) => call.url === `${API}/orders/delay`)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Confirm' }));

    const result =
      '2 order(s) moved from Monday 30 November to Tuesday 1 December; 2 delay email(s) sent to the customers.';
    expect(await screen.findByText(result)).toBeVisible();
    await waitFor(() => expect(screen.queryByLabelText('New dispatch day')).toBeNull());
    expect(screen.getByText(result)).toBeVisible();
    // Its heading gone with the day's orders, the form keeps its name.
    expect(screen.getByRole('form', { name: 'Delay Monday 30 November' })).toContainElement(
      screen.getByText(result),
    );
    expect(calls.filter((call) => call.url === `${API}/orders/delay`)).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(result)).toBeNull();
  });

  it('names one customer in the singular, and sends nothing when the delay is cancelled', async () => {
    const calls = stubNetwork({
      ...baseRoutes,
      [`GET ${API}/status`]: () =>
        jsonResponse({
          ...STATUS,
          next: { ...STATUS.next, orders: 1, bottles: 3, references: ['a1b2c3d4e5f6'] },
        }),
      [`GET ${API}/orders`]: () => jsonResponse({ records: [order()] }),
    });
    const { user } = signedIn();

    await user.type(await screen.findByLabelText('New dispatch day', {}, { timeout: 5000 }), '2026-12-01');
    await user.click(screen.getByRole('button', { name: 'Delay the day' }));
    expect(screen.getByText('Email 1 customer that their order moves to Tuesday 1 December?')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    expect(screen.queryByRole('button', { name: 'Confirm' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Delay the day' })).toBeVisible();
    expect(calls.filter((call) => call.url === `${API}/orders/delay`)).toHaveLength(0);
  });

  it('says when the new day is now over its limit, in the words the CLI uses', async () => {
    stubNetwork({
      ...baseRoutes,
      [`POST ${API}/orders/delay`]: () =>
        jsonResponse({
          from: '2026-11-30',
          to: '2026-12-01',
          moved: ['a1b2c3d4e5f6'],
          emailed: ['a1b2c3d4e5f6'],
          overLimit: { sold: 15, capacity: 10 },
        }),
    });
    const { user } = signedIn();

    await user.type(await screen.findByLabelText('New dispatch day', {}, { timeout: 5000 }), '2026-12-01');
    await user.click(screen.getByRole('button', { name: 'Delay the day' }));
    await user.click(screen.getByRole('button', { name: 'Confirm' }));

    expect(
      await screen.findByText(
        '1 order(s) moved from Monday 30 November to Tuesday 1 December; 1 delay email(s) sent to the customers. ' +
          'Tuesday 1 December is now over its limit: 15 sold of 10. Nothing is cancelled, and it sells no more.',
      ),
    ).toBeVisible();
  });

  it('says the day it moved the orders off is now closed, and where to reopen it', async () => {
    stubNetwork({
      ...baseRoutes,
      [`POST ${API}/orders/delay`]: () =>
        jsonResponse({
          from: '2026-11-30',
          to: '2026-12-01',
          moved: ['a1b2c3d4e5f6'],
          emailed: ['a1b2c3d4e5f6'],
          closed: { date: '2026-11-30', before: 'default', message: 'Monday 30 November is now closed.' },
        }),
    });
    const { user } = signedIn();

    await user.type(await screen.findByLabelText('New dispatch day', {}, { timeout: 5000 }), '2026-12-01');
    await user.click(screen.getByRole('button', { name: 'Delay the day' }));
    await user.click(screen.getByRole('button', { name: 'Confirm' }));

    expect(
      await screen.findByText(
        '1 order(s) moved from Monday 30 November to Tuesday 1 December; 1 delay email(s) sent to the customers. ' +
          'Monday 30 November is now closed: checkout sells nothing more on it. To sell it again: set its capacity under Shop & capacity.',
      ),
    ).toBeVisible();
  });

  it('downloads the day’s Click & Drop file with the token, since a link could not carry it', async () => {
    const calls = stubNetwork({
      ...baseRoutes,
      [`GET ${API}/dispatch-csv`]: () =>
        new Response('Order reference,Name\n', { headers: { 'Content-Type': 'text/csv' } }),
    });
    const createObjectURL = vi.fn(() => 'blob:https://api.shop.test/1');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { user } = signedIn();

    await user.click(await screen.findByRole('button', { name: 'Click & Drop CSV' }, { timeout: 5000 }));

    expect(await screen.findByText('click-and-drop-2026-11-30.csv downloaded.')).toBeVisible();
    const download = calls.find((call) => call.url.startsWith(`${API}/dispatch-csv`));
    expect(download?.url).toBe(`${API}/dispatch-csv?date=2026-11-30`);
    expect(download?.headers.get('Authorization')).toBe(`Bearer ${TOKENS.id_token}`);
    expect(click).toHaveBeenCalledTimes(1);
  });

  it('finds orders by what the merchant types, with the filters in the address', async () => {
    const calls = stubNetwork(baseRoutes);
    const { user, router } = signedIn('/admin?view=orders');

    await user.type(await screen.findByLabelText('Search', {}, { timeout: 5000 }), 'ls1 4ap');
    await user.selectOptions(screen.getByLabelText('Status'), 'paid');
    await user.click(screen.getByRole('button', { name: 'Show' }));

    await waitFor(() => expect(router.location.search).toBe('?view=orders&status=paid&q=ls1+4ap'));
    await waitFor(() =>
      expect(calls.some((call) => call.url === `${API}/orders?status=paid&q=ls1+4ap`)).toBe(true),
    );
    expect(await screen.findByRole('heading', { name: '2 results' })).toBeVisible();
  });

  it('answers an order request: a payment link, then a decline the API refuses in its own words', async () => {
    const request = {
      ...order(),
      kind: 'request',
      reference: 'req_ab3de6gh9jk2',
      status: 'requested',
      emails: [{ kind: 'requestReceived', state: 'sent', sentAt: '2026-11-25T10:00:06.000Z' }],
      history: [{ at: '2026-11-25T10:00:00.000Z', actor: 'customer', action: 'requested' }],
    };
    const calls = stubNetwork({
      ...baseRoutes,
      [`GET ${API}/order`]: () => jsonResponse({ record: request }),
      [`POST ${API}/requests/payment`]: () =>
        jsonResponse({
          reference: 'req_ab3de6gh9jk2',
          changed: true,
          url: 'https://checkout.stripe.com/c/pay/cs_test_1',
          expiresAt: '2026-11-26T10:00:00.000Z',
          email: 'sent',
        }),
      [`POST ${API}/requests/decline`]: () =>
        jsonResponse(
          { error: 'Request REQ_AB3DE6GH9JK2 has a payment link open: it cannot be declined.' },
          409,
        ),
    });
    const { user } = signedIn('/admin?order=req_ab3de6gh9jk2');

    expect(
      await screen.findByRole('heading', { name: 'Request req_ab3de6gh9jk2' }, { timeout: 5000 }),
    ).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Send payment link' }));
    expect(
      await screen.findByText(
        'Payment link for req_ab3de6gh9jk2 made, valid until Thu 26 Nov, 10:00. Payment link email sent to jane@example.com.',
      ),
    ).toBeVisible();
    expect(JSON.parse(calls.find((call) => call.url === `${API}/requests/payment`)?.body ?? '')).toEqual({
      reference: 'req_ab3de6gh9jk2',
    });

    await user.click(screen.getByRole('button', { name: 'Decline' }));
    expect(
      await screen.findByText('Request REQ_AB3DE6GH9JK2 has a payment link open: it cannot be declined.'),
    ).toBeVisible();
  });
});

describe('a decline whose email was withheld', () => {
  it('says the request was declined and why no email went', async () => {
    const request = {
      ...order(),
      kind: 'request',
      reference: 'req_ab3de6gh9jk2',
      status: 'requested',
      emails: [],
      history: [{ at: '2026-11-25T10:00:00.000Z', actor: 'customer', action: 'requested' }],
    };
    stubNetwork({
      ...baseRoutes,
      [`GET ${API}/order`]: () => jsonResponse({ record: request }),
      [`POST ${API}/requests/decline`]: () =>
        jsonResponse({
          reference: 'req_ab3de6gh9jk2',
          changed: true,
          email: 'not-sent',
          withheld: 'this address was emailed a decline today',
        }),
    });
    const { user } = signedIn('/admin?order=req_ab3de6gh9jk2');

    await screen.findByRole('heading', { name: 'Request req_ab3de6gh9jk2' }, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: 'Decline' }));

    expect(
      await screen.findByText(
        'req_ab3de6gh9jk2 declined. No email: this address was emailed a decline today.',
      ),
    ).toBeVisible();
  });
});

describe('tracking and part refunds on the page', () => {
  it('corrects the tracking number of a dispatched order in its Dispatch section', async () => {
    const dispatched = order({
      status: 'dispatched',
      dispatchedAt: '2026-11-30T09:00:00.000Z',
      trackingNumber: 'AB123456789GB',
    });
    const calls = stubNetwork({
      ...baseRoutes,
      [`GET ${API}/order`]: () => jsonResponse({ record: dispatched }),
      [`POST ${API}/orders/tracking`]: () =>
        jsonResponse({
          reference: 'a1b2c3d4e5f6',
          changed: true,
          email: 'sent',
          record: { ...dispatched, trackingNumber: 'AB123456780GB' },
        }),
    });
    const { user } = signedIn('/admin?order=A1B2C3D4E5F6');
    const section = await screen.findByRole('form', { name: 'Dispatch' }, { timeout: 5000 });
    expect(section).toHaveTextContent('tracking AB123456789GB');
    await user.type(
      within(section).getByRole('textbox', { name: 'Correct tracking number' }),
      'AB123456780GB',
    );
    await user.click(within(section).getByRole('button', { name: 'Save tracking number' }));
    expect(
      await screen.findByText(
        'Tracking number of a1b2c3d4e5f6 is now AB123456780GB. Update email sent to jane@example.com.',
      ),
    ).toBeVisible();
    const sent = calls.filter((call) => call.url === `${API}/orders/tracking`);
    expect(sent.map((call) => JSON.parse(call.body))).toEqual([
      { reference: 'a1b2c3d4e5f6', trackingNumber: 'AB123456780GB' },
    ]);
  });

  it('refunds 2 bottles after showing the amount, and shows the order refunded in part', async () => {
    const six = order({ bottles: 6, subtotalPence: 1950, totalPence: 2445 });
    const calls = stubNetwork({
      ...baseRoutes,
      [`GET ${API}/order`]: () => jsonResponse({ record: six }),
      [`POST ${API}/orders/refund-part`]: () =>
        jsonResponse({
          reference: 'a1b2c3d4e5f6',
          refundId: 're_part_1',
          pence: 650,
          email: 'sent',
          record: {
            ...six,
            partlyRefundedPence: 650,
            partRefunds: [
              {
                refundId: 're_part_1',
                pence: 650,
                bottles: 2,
                delivery: false,
                reason: 'doa',
                at: '2026-12-01T10:00:00.000Z',
              },
            ],
          },
        }),
    });
    const { user } = signedIn('/admin?order=A1B2C3D4E5F6');
    const form = await screen.findByRole('form', { name: 'Refund part of a1b2c3d4e5f6' }, { timeout: 5000 });
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Bottles to refund' }), '2');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Reason' }), 'Arrived dead');
    await user.click(within(form).getByRole('button', { name: 'Refund £6.50' }));
    expect(
      within(form).getByText('Refund £6.50 to Jane Doe? Stripe sends it back to their card.'),
    ).toBeVisible();
    expect(calls.filter((call) => call.url === `${API}/orders/refund-part`)).toHaveLength(0);
    await user.click(within(form).getByRole('button', { name: 'Confirm refund of £6.50' }));
    expect(
      await screen.findByText(
        '£6.50 refunded to Jane Doe (re_part_1); £6.50 of £24.45 refunded in all. Refund email sent to jane@example.com.',
      ),
    ).toBeVisible();
    expect(screen.getByText('Refunded in part').nextElementSibling).toHaveTextContent('£6.50 of £24.45');
    const sent = calls.filter((call) => call.url === `${API}/orders/refund-part`);
    expect(sent.map((call) => JSON.parse(call.body))).toEqual([
      { reference: 'a1b2c3d4e5f6', bottles: 2, delivery: false, reason: 'doa' },
    ]);
  });

  it('after dispatch, neither refund has a reason chosen: each button waits for the merchant to choose one', async () => {
    const dispatched = order({
      status: 'dispatched',
      dispatchedAt: '2026-11-30T09:00:00.000Z',
      trackingNumber: 'AB123456789GB',
    });
    const calls = stubNetwork({
      ...baseRoutes,
      [`GET ${API}/order`]: () => jsonResponse({ record: dispatched }),
    });
    const { user } = signedIn('/admin?order=A1B2C3D4E5F6');
    const part = await screen.findByRole('form', { name: 'Refund part of a1b2c3d4e5f6' }, { timeout: 5000 });
    const whole = screen.getByRole('form', { name: 'Refund' });
    const partReason = within(part).getByRole('combobox', { name: 'Reason' });
    const wholeReason = within(whole).getByRole('combobox', { name: 'Reason' });

    for (const reason of [partReason, wholeReason]) {
      expect(reason).toHaveValue('');
      expect(reason).toBeRequired();
      expect(within(reason).getByRole('option', { selected: true })).toHaveTextContent('Choose a reason');
    }
    expect(within(whole).getByRole('button', { name: 'Refund…' })).toBeDisabled();
    await user.selectOptions(within(part).getByRole('combobox', { name: 'Bottles to refund' }), '1');
    expect(within(part).getByRole('button', { name: 'Refund £3.25' })).toBeDisabled();

    await user.selectOptions(partReason, 'Other');
    expect(within(part).getByRole('button', { name: 'Refund £3.25' })).toBeEnabled();
    await user.selectOptions(wholeReason, 'Supply problem');
    expect(within(whole).getByRole('button', { name: 'Refund…' })).toBeEnabled();
    expect(calls.filter((call) => call.url.includes('/orders/refund'))).toHaveLength(0);
  });

  it('imports a Click & Drop export from the orders screen and lists the row that matched nothing', async () => {
    const calls = stubNetwork({
      ...baseRoutes,
      [`POST ${API}/orders/tracking-import`]: ({ body }) => {
        const unmatched = [
          {
            line: 3,
            reference: 'nosuchref123',
            trackingNumber: 'JX123456780GB',
            reason: 'No order or request with reference nosuchref123.',
          },
        ];
        if (JSON.parse(body).preview === true) {
          return jsonResponse({
            results: [],
            unmatched,
            preview: true,
            rows: [
              {
                line: 2,
                reference: 'a1b2c3d4e5f6',
                customerName: 'Jane Doe',
                customerEmail: 'jane@example.com',
                trackingNumber: 'JX123456789GB',
                action: 'dispatch',
              },
              {
                line: 3,
                reference: 'nosuchref123',
                trackingNumber: 'JX123456780GB',
                action: 'refused',
                reason: 'No order or request with reference nosuchref123.',
              },
            ],
          });
        }
        return jsonResponse({
          results: [
            {
              reference: 'a1b2c3d4e5f6',
              changed: true,
              email: 'sent',
              status: 'dispatched',
              record: order({ status: 'dispatched' }),
            },
          ],
          unmatched,
        });
      },
    });
    const { user } = signedIn('/admin?view=orders');
    const input = await screen.findByLabelText('Choose the Click & Drop export', {}, { timeout: 5000 });
    const csv =
      'Order reference,Tracking number\r\na1b2c3d4e5f6,JX123456789GB\r\nnosuchref123,JX123456780GB\r\n';
    await user.upload(input, new File([csv], 'export.csv', { type: 'text/csv' }));
    // Choosing the file previews it: nothing is sent before Confirm.
    const rows = await screen.findByRole('list', { name: 'What each row would do' });
    expect(
      within(rows)
        .getAllByRole('listitem')
        .map((row) => row.textContent),
    ).toEqual([
      'Line 2: a1b2c3d4e5f6 Jane Doe (jane@example.com), JX123456789GB: marked dispatched and emailed',
      'Line 3: nosuchref123, JX123456780GB: refused: No order or request with reference nosuchref123.',
    ]);
    await user.click(screen.getByRole('button', { name: 'Import and send 1 email…' }));
    expect(
      screen.getByText('Mark 1 order dispatched and correct 0 numbers: 1 customer is emailed.'),
    ).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(
      await screen.findByText('1 order matched: 1 marked dispatched, 1 email sent. 1 row not matched.'),
    ).toBeVisible();
    expect(
      within(screen.getByRole('list', { name: 'Rows not matched' })).getByRole('listitem'),
    ).toHaveTextContent('Line 3 (nosuchref123): No order or request with reference nosuchref123.');
    const sent = calls.filter((call) => call.url === `${API}/orders/tracking-import`);
    expect(sent.map((call) => JSON.parse(call.body))).toEqual([{ csv, preview: true, early: true }, { csv }]);
  });
});

describe('the weather of the coming dispatch day', () => {
  const WHY =
    'Wednesday 2 December: −4 °C in Aberdeen on Monday morning; Tuesday at risk too: −4 °C in Aberdeen on Tuesday morning; Wednesday fine';
  const NONE =
    'No fine day within the forecast: decide by hand. −6 °C in Lerwick on Monday morning; Tuesday at risk too: −6 °C in Lerwick on Tuesday morning';
  const CHECKED = {
    day: '2026-11-30',
    state: 'checked',
    forecastSeen: true,
    orders: [
      {
        reference: 'A1B2C3D4E5F6',
        customerName: 'Ann Aberdeen',
        verdict: 'at risk',
        reason: '−4 °C in Aberdeen on Monday morning',
        move: { to: '2026-12-02', why: WHY },
      },
      {
        reference: 'C3D4E5F6A1B2',
        customerName: 'Lars Lerwick',
        verdict: 'at risk',
        reason: '−6 °C in Lerwick on Monday morning',
        move: { to: null, why: NONE },
      },
      {
        reference: 'B2C3D4E5F6A1',
        customerName: 'Bea Bristol',
        verdict: 'fine',
        reason: '6 °C to 12 °C in Bristol',
      },
    ],
    atRisk: 2,
    summary: 'Weather for Monday 30 November (3 orders): 2 at risk, 1 fine.',
  };

  it('before the evening two days ahead, says when it will know', async () => {
    stubNetwork(baseRoutes);
    signedIn();
    expect(
      await screen.findByText(
        'The weather for Monday 30 November is checked from 18:00 on Saturday 28 November.',
        {},
        { timeout: 5000 },
      ),
    ).toBeVisible();
  });

  it('names each customer, linking their order, with the verdict and where the delay would take it', async () => {
    stubNetwork({ ...baseRoutes, [`GET ${API}/weather`]: () => jsonResponse(CHECKED) });
    signedIn();
    const list = await screen.findByRole(
      'list',
      { name: 'Weather for Monday 30 November' },
      { timeout: 5000 },
    );
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      `At risk Ann Aberdeen (A1B2C3D4E5F6): −4 °C in Aberdeen on Monday morning Delay: ${WHY}`,
      `At risk Lars Lerwick (C3D4E5F6A1B2): −6 °C in Lerwick on Monday morning Delay: ${NONE}`,
      'Fine Bea Bristol (B2C3D4E5F6A1): 6 °C to 12 °C in Bristol',
    ]);
    expect(within(list).getByRole('link', { name: 'Ann Aberdeen' })).toHaveAttribute(
      'href',
      '/admin?order=A1B2C3D4E5F6',
    );
    expect(within(list).getByRole('link', { name: 'Bea Bristol' })).toHaveAttribute(
      'href',
      '/admin?order=B2C3D4E5F6A1',
    );
  });

  it('delays each order to its own day after asking; what it did, per order, stays until dismissed', async () => {
    let checked: object = CHECKED;
    const calls = stubNetwork({
      ...baseRoutes,
      [`GET ${API}/weather`]: () => jsonResponse(checked),
      [`POST ${API}/orders/delay-at-risk`]: () => {
        // The day checked again after the delay: the order left there is still at risk, with no day.
        checked = { ...CHECKED, orders: CHECKED.orders.slice(1), atRisk: 1 };
        return jsonResponse({
          from: '2026-11-30',
          orders: [
            { reference: 'A1B2C3D4E5F6', customerName: 'Ann Aberdeen', to: '2026-12-02', why: WHY },
            { reference: 'C3D4E5F6A1B2', customerName: 'Lars Lerwick', to: null, why: NONE },
          ],
          moved: ['A1B2C3D4E5F6'],
          emailed: ['A1B2C3D4E5F6'],
        });
      },
    });
    const { user } = signedIn();
    const card = await screen.findByRole(
      'form',
      { name: 'Weather for Monday 30 November' },
      { timeout: 5000 },
    );

    await user.click(
      within(card).getByRole('button', { name: 'Delay the 1 order at risk to Wednesday 2 December' }),
    );
    expect(
      within(card).getByText(
        'Email 1 customer that their order moves: Ann Aberdeen to Wednesday 2 December? Not moved (no fine day within the forecast): Lars Lerwick.',
      ),
    ).toBeVisible();
    expect(calls.some((call) => call.url.endsWith('/orders/delay-at-risk'))).toBe(false);
    await user.click(within(card).getByRole('button', { name: 'Confirm' }));

    expect(
      await within(card).findByText(
        '1 order at risk moved from Monday 30 November; 1 delay email sent to the customers.',
      ),
    ).toBeVisible();
    const moved = within(card).getByRole('list', { name: 'Moved' });
    expect(moved).toHaveTextContent(`Moved Ann Aberdeen (A1B2C3D4E5F6): ${WHY}`);
    expect(within(moved).getByRole('link', { name: 'Ann Aberdeen' })).toHaveAttribute(
      'href',
      '/admin?order=A1B2C3D4E5F6',
    );
    const left = within(card).getByRole('list', { name: 'Not moved: decide by hand' });
    expect(left).toHaveTextContent(`Not moved Lars Lerwick (C3D4E5F6A1B2): ${NONE}`);
    // The card reloads the day (only the order left, nothing more to delay); the result stays.
    await waitFor(() => expect(within(card).queryByRole('button', { name: /^Delay the / })).toBeNull());
    expect(within(card).getByRole('list', { name: 'Moved' })).toBeVisible();
    const posted = calls.filter((call) => call.url === `${API}/orders/delay-at-risk`);
    expect(posted.map((call) => JSON.parse(call.body))).toEqual([{ date: '2026-11-30' }]);

    await user.click(within(card).getByRole('button', { name: 'Dismiss' }));
    expect(within(card).queryByRole('list', { name: 'Moved' })).toBeNull();
    expect(within(card).queryByRole('list', { name: 'Not moved: decide by hand' })).toBeNull();
  });

  const KEY_PROBLEM =
    "This stage declares commercial use, but no Open-Meteo key is stored: the weather check asks Open-Meteo's free endpoint, which is for non-commercial use only. Store the key with npm run setup (--open-meteo-key), then run npm run doctor.";

  it('says first, as an alert, when the stage declares commercial use and has no readable forecast key', async () => {
    stubNetwork({
      ...baseRoutes,
      [`GET ${API}/weather`]: () => jsonResponse({ ...CHECKED, forecastKeyProblem: KEY_PROBLEM }),
    });
    signedIn();
    const card = await screen.findByRole(
      'form',
      { name: 'Weather for Monday 30 November' },
      { timeout: 5000 },
    );

    const alert = within(card).getByRole('alert');
    expect(alert).toHaveTextContent(`Forecast key missing. ${KEY_PROBLEM}`);
    // The verdicts still show: they come from the free endpoint's forecast.
    expect(within(card).getByRole('list', { name: 'Weather for Monday 30 November' })).toBeVisible();
  });

  it('says it before the evening two days ahead too', async () => {
    stubNetwork({
      ...baseRoutes,
      [`GET ${API}/weather`]: () =>
        jsonResponse({
          day: '2026-11-30',
          state: 'not yet',
          knownFrom: '2026-11-28T18:00:00.000Z',
          summary: 'The weather for Monday 30 November is checked from 18:00 on Saturday 28 November.',
          forecastKeyProblem: KEY_PROBLEM,
        }),
    });
    signedIn();

    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(
      `Forecast key missing. ${KEY_PROBLEM}`,
    );
  });

  it('says nothing of the key on a stage whose key is read, or that does not trade', async () => {
    stubNetwork({ ...baseRoutes, [`GET ${API}/weather`]: () => jsonResponse(CHECKED) });
    signedIn();
    const card = await screen.findByRole(
      'form',
      { name: 'Weather for Monday 30 November' },
      { timeout: 5000 },
    );

    expect(within(card).queryByText(/Forecast key missing/)).toBeNull();
  });

  it('a weather check that fails says it could not see the forecast, and the week still shows', async () => {
    stubNetwork({
      ...baseRoutes,
      [`GET ${API}/weather`]: () => jsonResponse({ error: 'Internal error' }, 500),
    });
    signedIn();
    expect(await screen.findByText(/^Could not see the forecast/, {}, { timeout: 5000 })).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Next dispatch: Monday 30 November' })).toBeVisible();
  });
});

describe('standing orders in the capacity table and the week (issue 50, ADR 0060)', () => {
  it('the week: 6 bottles held for standing orders, apart from capacity left', async () => {
    stubNetwork({
      ...baseRoutes,
      [`GET ${API}/status`]: () =>
        jsonResponse({ ...STATUS, next: { ...STATUS.next, standing: 6, left: 5 } }),
    });
    signedIn();

    const day = await screen.findByRole(
      'heading',
      { name: 'Next dispatch: Monday 30 November' },
      { timeout: 5000 },
    );
    const card = day.closest('.card');
    if (!(card instanceof HTMLElement)) throw new Error('no card');
    expect(within(card).getByText('Capacity left').nextElementSibling).toHaveTextContent('5 bottles of 20');
    expect(within(card).getByText('Held for standing orders').nextElementSibling).toHaveTextContent(
      '6 bottles',
    );
  });

  it('the capacity table: "2 standing" under a day\'s held bottles, nothing on a day without', async () => {
    const row = { capacity: 12, reserved: 1, sold: 3, orders: 1, bottles: 3, dispatchDay: true };
    stubNetwork({
      ...baseRoutes,
      [`GET ${API}/capacity`]: () =>
        jsonResponse({
          settings: { weekly: 12, days: {} },
          rows: [
            { ...row, date: '2026-11-30', standing: 2, left: 6 },
            { ...row, date: '2026-12-07', left: 8 },
          ],
        }),
    });
    signedIn('/admin?view=shop');

    const table = await screen.findByRole('table', { name: 'Bottles per dispatch day' }, { timeout: 5000 });
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(first).toHaveTextContent('2 standing');
    expect(second).not.toHaveTextContent('standing');
  });
});
