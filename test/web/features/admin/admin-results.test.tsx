import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubLocationAssign } from '../../helpers/fake-browser';
import { renderAdmin } from '../../helpers/render-app';

// The admin page's results on a phone's terms: an action's result stays after its view reloads
// (the list emptied), each refused order is named with why, an early dispatch asks naming the
// planned day, and "Show" runs the same search again. A fake network answers by URL.

const SIGN_IN_URL = 'https://auth.shop.test';
const API = 'https://api.shop.test/functions/v1/admin';

const part = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, '');
const TOKENS = {
  id_token: `${part({ alg: 'RS256' })}.${part({ email: 'merchant@live-aquatics.test' })}.signature`,
  access_token: 'access-1',
  expires_in: 1800,
  token_type: 'Bearer',
};

function order(overrides: Record<string, unknown> = {}) {
  return {
    kind: 'order',
    reference: 'a1b2c3d4e5f6',
    status: 'paid',
    dispatchDate: '2026-12-07',
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
    createdAt: '2026-12-03T10:00:00.000Z',
    paidAt: '2026-12-03T10:00:05.000Z',
    placedWhilePaused: false,
    refundablePence: 1470,
    emails: [],
    history: [],
    payment: {
      checkoutSessionId: 'cs_test_a1b2c3d4e5f6',
      paymentIntentId: 'pi_123',
      livemode: false,
      dashboardUrl: 'https://dashboard.stripe.com/test/payments/pi_123',
    },
    ...overrides,
  };
}

const SAM = order({ reference: 'zz9yy8xx7ww6', customerName: 'Sam Smith', customerEmail: 'sam@example.com' });

function status(orders: number) {
  return {
    shop: { mode: 'open' },
    today: '2026-12-06',
    next: {
      date: '2026-12-07',
      capacity: 20,
      reserved: 0,
      sold: 3 * orders,
      left: 20 - 3 * orders,
      orders,
      bottles: 3 * orders,
      references: [],
    },
    overdue: [],
    later: [],
    requestsWaiting: 0,
  };
}

type Request = { url: string; method: string; body: string };
type Handler = (request: Request) => Response | Promise<Response>;

/** Answers fetch by "METHOD url-without-query"; records every call. */
function stubNetwork(routes: Record<string, Handler>) {
  const calls: Request[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const method = init?.method ?? 'GET';
      const body = init?.body instanceof URLSearchParams ? init.body.toString() : String(init?.body ?? '');
      calls.push({ url, method, body });
      const path = url.split('?')[0] ?? url;
      const handler =
        routes[`${method} ${path}`] ??
        (path.endsWith('/functions/v1/shop-status') ? () => jsonResponse({ mode: 'open' }) : undefined);
      if (!handler) throw new Error(`Unexpected fetch: ${method} ${url}`);
      return handler({ url, method, body });
    }),
  );
  return calls;
}

const baseRoutes: Record<string, Handler> = {
  'GET https://api.shop.test/admin-config.json': () =>
    jsonResponse({ signInUrl: SIGN_IN_URL, clientId: 'admin-client' }),
  // The session route trades the code (ADR 0055): tokens, never the refresh token.
  [`POST ${API}/session/start`]: () =>
    jsonResponse({
      idToken: TOKENS.id_token,
      accessToken: TOKENS.access_token,
      expiresIn: TOKENS.expires_in,
    }),
  [`GET ${API}/weather`]: () =>
    jsonResponse({
      day: '2026-12-07',
      state: 'not yet',
      knownFrom: '2026-12-05T18:00:00.000Z',
      summary: 'The weather for Monday 7 December is checked from 18:00 on Saturday 5 December.',
    }),
};

let codes = 0;
/** Arrives back from the identity provider with a fresh code, as after signing in there. */
function signedIn(returnTo = '/admin') {
  codes += 1;
  sessionStorage.setItem(
    'admin-sign-in',
    JSON.stringify({ state: `results-${codes}`, verifier: 'verifier-1', returnTo }),
  );
  return renderAdmin(`/admin?code=results-code-${codes}&state=results-${codes}`);
}

const dispatched = (record: ReturnType<typeof order>) => ({
  reference: record.reference,
  changed: true,
  email: 'sent',
  status: 'dispatched',
  record: { ...record, status: 'dispatched' },
});

const bodies = (calls: Request[], route: string) =>
  calls.filter((call) => call.url === `${API}/${route}`).map((call) => JSON.parse(call.body));

beforeEach(() => {
  stubLocationAssign();
});

describe('an action’s result stays', () => {
  it('after a bulk dispatch the week reloads with no order left, and the result is still there until dismissed', async () => {
    let left = [order(), SAM];
    const calls = stubNetwork({
      ...baseRoutes,
      [`GET ${API}/status`]: () => jsonResponse(status(left.length)),
      [`GET ${API}/orders`]: () => jsonResponse({ records: left }),
      [`POST ${API}/orders/dispatch`]: () => {
        left = [];
        return jsonResponse({ results: [dispatched(order()), dispatched(SAM)] });
      },
    });
    const { user } = signedIn();

    await user.click(await screen.findByRole('checkbox', { name: 'Choose a1b2c3d4e5f6 (Jane Doe)' }));
    await user.click(screen.getByRole('checkbox', { name: 'Choose zz9yy8xx7ww6 (Sam Smith)' }));
    await user.click(screen.getByRole('button', { name: 'Mark 2 dispatched' }));
    expect(bodies(calls, 'orders/dispatch')).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Mark 2 dispatched and email' }));

    // The week reloaded: the day has no order left…
    expect(await screen.findByText('Nothing here.')).toBeVisible();
    // …and the result is still on screen, order by order.
    expect(screen.getByText('2 orders marked dispatched.')).toBeVisible();
    expect(
      screen.getByText('a1b2c3d4e5f6 marked dispatched; dispatch email sent to jane@example.com.'),
    ).toBeVisible();
    expect(
      screen.getByText('zz9yy8xx7ww6 marked dispatched; dispatch email sent to sam@example.com.'),
    ).toBeVisible();
    // Listed twice: on opening, and again after the dispatch.
    expect(calls.filter((call) => call.url.split('?')[0] === `${API}/orders`)).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('2 orders marked dispatched.')).toBeNull();
  });

  it('a dispatch where every order is refused (409 with results) names each order and why', async () => {
    stubNetwork({
      ...baseRoutes,
      [`GET ${API}/status`]: () => jsonResponse(status(2)),
      [`GET ${API}/orders`]: () => jsonResponse({ records: [order(), SAM] }),
      [`POST ${API}/orders/dispatch`]: () =>
        jsonResponse(
          {
            error: 'a1b2c3d4e5f6 was refunded. zz9yy8xx7ww6 was refunded.',
            results: [
              { reference: 'a1b2c3d4e5f6', refused: 'a1b2c3d4e5f6 was refunded: it cannot be dispatched.' },
              { reference: 'zz9yy8xx7ww6', refused: 'zz9yy8xx7ww6 was refunded: it cannot be dispatched.' },
            ],
          },
          409,
        ),
    });
    const { user } = signedIn();

    await user.click(await screen.findByRole('checkbox', { name: 'Choose a1b2c3d4e5f6 (Jane Doe)' }));
    await user.click(screen.getByRole('checkbox', { name: 'Choose zz9yy8xx7ww6 (Sam Smith)' }));
    await user.click(screen.getByRole('button', { name: 'Mark 2 dispatched' }));
    await user.click(screen.getByRole('button', { name: 'Mark 2 dispatched and email' }));

    expect(
      await screen.findByText('0 orders marked dispatched. 2 refused: nothing done to them.'),
    ).toBeVisible();
    expect(
      screen.getByText('a1b2c3d4e5f6: a1b2c3d4e5f6 was refunded: it cannot be dispatched.'),
    ).toBeVisible();
    expect(
      screen.getByText('zz9yy8xx7ww6: zz9yy8xx7ww6 was refunded: it cannot be dispatched.'),
    ).toBeVisible();
  });

  it('orders planned for a later day are refused, then asked about naming the day, and sent early on Confirm', async () => {
    const calls = stubNetwork({
      ...baseRoutes,
      [`GET ${API}/status`]: () => jsonResponse(status(2)),
      [`GET ${API}/orders`]: () => jsonResponse({ records: [order(), SAM] }),
      [`POST ${API}/orders/dispatch`]: ({ body }) => {
        if (JSON.parse(body).early === true) {
          return jsonResponse({ results: [dispatched(order()), dispatched(SAM)] });
        }
        return jsonResponse(
          {
            error: 'Both are planned for Monday 14 December.',
            results: [order(), SAM].map(({ reference }) => ({
              reference,
              refused: `${reference} is planned for Monday 14 December: dispatch it now only on purpose (early)`,
              plannedFor: '2026-12-14',
            })),
          },
          409,
        );
      },
    });
    const { user } = signedIn();

    await user.click(await screen.findByRole('checkbox', { name: 'Choose a1b2c3d4e5f6 (Jane Doe)' }));
    await user.click(screen.getByRole('checkbox', { name: 'Choose zz9yy8xx7ww6 (Sam Smith)' }));
    await user.type(
      screen.getByRole('textbox', { name: 'Tracking number for zz9yy8xx7ww6' }),
      'CD987654321GB',
    );
    await user.click(screen.getByRole('button', { name: 'Mark 2 dispatched' }));
    await user.click(screen.getByRole('button', { name: 'Mark 2 dispatched and email' }));

    expect(
      await screen.findByText('2 orders are planned for Monday 14 December: dispatch them now?'),
    ).toBeVisible();
    expect(
      screen.getByText(
        'a1b2c3d4e5f6: a1b2c3d4e5f6 is planned for Monday 14 December: dispatch it now only on purpose (early)',
      ),
    ).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByText('2 orders marked dispatched.')).toBeVisible();
    expect(screen.queryByText(/dispatch them now\?$/)).toBeNull();
    expect(bodies(calls, 'orders/dispatch')).toEqual([
      {
        references: ['a1b2c3d4e5f6', 'zz9yy8xx7ww6'],
        trackingNumbers: { zz9yy8xx7ww6: 'CD987654321GB' },
      },
      {
        references: ['a1b2c3d4e5f6', 'zz9yy8xx7ww6'],
        trackingNumbers: { zz9yy8xx7ww6: 'CD987654321GB' },
        early: true,
      },
    ]);
  });
});

describe('the Click & Drop import', () => {
  it('previews what each row would do, names the planned day, sends nothing until Confirm, then sends early', async () => {
    const calls = stubNetwork({
      ...baseRoutes,
      [`GET ${API}/orders`]: () => jsonResponse({ records: [order()] }),
      [`POST ${API}/orders/tracking-import`]: ({ body }) =>
        JSON.parse(body).preview === true
          ? jsonResponse({
              results: [],
              unmatched: [],
              preview: true,
              rows: [
                {
                  line: 2,
                  reference: 'a1b2c3d4e5f6',
                  customerName: 'Jane Doe',
                  customerEmail: 'jane@example.com',
                  trackingNumber: 'JX123456789GB',
                  action: 'dispatch',
                  plannedFor: '2026-12-14',
                },
                {
                  line: 3,
                  reference: 'zz9yy8xx7ww6',
                  customerName: 'Sam Smith',
                  customerEmail: 'sam@example.com',
                  trackingNumber: 'JX123456780GB',
                  action: 'refused',
                  reason: 'Two numbers in this file for zz9yy8xx7ww6 (lines 3 and 4).',
                },
              ],
            })
          : jsonResponse({ results: [dispatched(order())], unmatched: [] }),
    });
    const { user } = signedIn('/admin?view=orders');

    const input = await screen.findByLabelText('Choose the Click & Drop export');
    await user.upload(
      input,
      new File(['Order reference,Tracking number\r\n'], 'export.csv', { type: 'text/csv' }),
    );
    const rows = await screen.findByRole('list', { name: 'What each row would do' });
    expect(
      within(rows)
        .getAllByRole('listitem')
        .map((row) => row.textContent),
    ).toEqual([
      'Line 2: a1b2c3d4e5f6 Jane Doe (jane@example.com), JX123456789GB: marked dispatched and emailed, though planned for Monday 14 December',
      'Line 3: zz9yy8xx7ww6 Sam Smith (sam@example.com), JX123456780GB: refused: Two numbers in this file for zz9yy8xx7ww6 (lines 3 and 4).',
    ]);
    await user.click(screen.getByRole('button', { name: 'Import and send 1 email…' }));
    expect(
      screen.getByText(
        'Mark 1 order dispatched and correct 0 numbers: 1 customer is emailed. 1 order is planned for Monday 14 December: dispatch it now?',
      ),
    ).toBeVisible();
    expect(bodies(calls, 'orders/tracking-import')).toEqual([
      { csv: 'Order reference,Tracking number\r\n', preview: true, early: true },
    ]);
    await user.click(screen.getByRole('button', { name: 'Confirm' }));

    expect(
      await screen.findByText('1 order matched: 1 marked dispatched, 1 email sent. 0 rows not matched.'),
    ).toBeVisible();
    expect(bodies(calls, 'orders/tracking-import')).toEqual([
      { csv: 'Order reference,Tracking number\r\n', preview: true, early: true },
      { csv: 'Order reference,Tracking number\r\n', early: true },
    ]);
  });
});

describe('a search run again', () => {
  it('"Show" twice with the same search lists the orders again, not "Loading…" for good', async () => {
    const calls = stubNetwork({
      ...baseRoutes,
      [`GET ${API}/orders`]: () => jsonResponse({ records: [order()] }),
    });
    const { user } = signedIn('/admin?view=orders');

    const found = () => screen.findByRole('list', { name: 'Orders and requests found' });
    await found();
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'Jane');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect(within(await found()).getByRole('link', { name: 'a1b2c3d4e5f6' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Show' }));

    expect(within(await found()).getByRole('link', { name: 'a1b2c3d4e5f6' })).toBeVisible();
    expect(screen.queryByText('Loading…')).toBeNull();
    const searches = calls.filter((call) => call.url.split('?')[0] === `${API}/orders`);
    // Each Show asked the API again (the view's first lists come before: any number of them).
    expect(searches.map((call) => new URL(call.url).searchParams.get('q')).filter(Boolean)).toEqual([
      'Jane',
      'Jane',
    ]);
  });
});
