import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toOrderItem } from '../../../../lambdas/domain/checkout/paid-checkout';
import { createAdminApiHandler, loadAdminDeps } from '../../../../lambdas/handlers/admin-api/handler';
import type { HttpLambda } from '../../../../local/api-gateway-adapter';
import { withJwtAuthorizer } from '../../../../local/jwt-authorizer';
import { quoteOrder } from '../../../../shared/pricing';
import { apiGatewayEvent, jsonBody } from '../../../support/api-gateway-event';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';
import { signingKey, signToken, TEST_CLIENT_ID, TEST_ISSUER } from '../../../support/jwt-tokens';
import { adminApiEnv } from './admin-env';

// The merchant's week through the admin API, on the clock of Wednesday 2 December 2026 (London,
// GMT), against dynalite and the SES stand-in. One order was left from Monday 30 November; two
// paid on Tuesday 1 December go on Monday 7 December. The tests run in order, each on the state
// the one before left.
const NOW = new Date('2026-12-02T10:00:00Z');

let h: FulfilmentHarness;
let admin: HttpLambda;
const key = signingKey();
const token = signToken(key, { email: 'packer@live-aquatics.test' });
let leftOver = '';
let first = '';
let second = '';

beforeAll(async () => {
  h = await startFulfilmentHarness();
  const handler = createAdminApiHandler(async () => ({
    ...(await loadAdminDeps(adminApiEnv(h))),
    now: () => NOW,
  }));
  admin = withJwtAuthorizer(handler, { issuer: TEST_ISSUER, clientId: TEST_CLIENT_ID, jwks: key.jwks });
  leftOver = await seedOrder('2026-11-24T10:00:00Z', 1, 3);
  first = await seedOrder('2026-12-01T09:00:00Z', 2, 3);
  second = await seedOrder('2026-12-01T09:30:00Z', 3, 6);
});
afterAll(() => h.close());

/** An order paid at `paidAt`, written with the real mapping; its reference. */
async function seedOrder(paidAt: string, n: number, bottles: 3 | 6, sessionId?: string): Promise<string> {
  const at = new Date(paidAt);
  const order = toOrderItem(
    {
      sessionId: sessionId ?? `cs_test_week${at.getTime()}x${String(n).padStart(6, '0')}`,
      paymentIntentId: `pi_test_week${n}`,
      livemode: false,
      quote: quoteOrder(bottles),
      currency: 'gbp',
      customer: {
        name: `Customer ${n}`,
        email: `week${n}@example.com`,
        phone: '07700 900123',
        address: `${n} Pond Lane\nBristol`,
        postcode: 'BS1 4DJ',
      },
      promisedDispatchDate: undefined,
      checkoutCreatedAt: at,
    },
    { now: at, cutoffHours: 36 },
  );
  await h.standIns.inspector.send(new PutCommand({ TableName: h.standIns.tableName, Item: order }));
  return order.reference;
}

function call(
  method: 'GET' | 'POST',
  path: string,
  options: { body?: unknown; query?: Record<string, string> } = {},
) {
  return admin(
    apiGatewayEvent({
      method,
      path,
      lowerCaseHeaders: true,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(options.body !== undefined && { body: options.body }),
      ...(options.query && { queryStringParameters: options.query }),
    }),
  );
}

const noLimit = { capacity: null, reserved: 0, sold: 0, left: null };

describe('admin API: the week', () => {
  it('status: the day left from last week to pack first, the coming Monday after it, the shop open', async () => {
    const result = await call('GET', '/functions/v1/admin/status');

    expect(result.statusCode).toBe(200);
    expect(result.headers?.['cache-control']).toBe('no-store');
    expect(jsonBody(result)).toEqual({
      shop: { mode: 'open' },
      today: '2026-12-02',
      next: { date: '2026-11-30', orders: 1, bottles: 3, references: [leftOver], ...noLimit },
      overdue: [],
      later: [{ date: '2026-12-07', orders: 2, bottles: 9, references: [first, second], ...noLimit }],
      requestsWaiting: 0,
    });
  });

  it("capacity: a date in a week sets that week's dispatch day; the weekly default; a day back to the default", async () => {
    const day = await call('POST', '/functions/v1/admin/capacity', {
      body: { date: '2026-12-09', bottles: 8 },
    });
    const weekly = await call('POST', '/functions/v1/admin/capacity', {
      body: { date: 'default', bottles: 40 },
    });
    const listed = await call('GET', '/functions/v1/admin/capacity', { query: { weeks: '2' } });
    const back = await call('POST', '/functions/v1/admin/capacity', {
      body: { date: '2026-12-07', bottles: 'default' },
    });
    const none = await call('POST', '/functions/v1/admin/capacity', {
      body: { date: '2026-12-14', bottles: null },
    });

    expect(day.statusCode).toBe(200);
    expect(jsonBody(day)).toMatchObject({
      date: '2026-12-07',
      settings: { weekly: null, days: { '2026-12-07': 8 } },
      oversold: [],
      // The next eight dispatch days (29 December: the Tuesday after the Christmas bank holidays).
      rows: [
        { date: '2026-12-07', capacity: 8, reserved: 0, sold: 0, left: 8 },
        { date: '2026-12-14', ...noLimit },
        { date: '2026-12-21', ...noLimit },
        { date: '2026-12-29', ...noLimit },
        { date: '2027-01-04', ...noLimit },
        { date: '2027-01-11', ...noLimit },
        { date: '2027-01-18', ...noLimit },
        { date: '2027-01-25', ...noLimit },
      ],
    });
    expect(jsonBody(weekly)).toMatchObject({
      date: 'default',
      settings: { weekly: 40, days: { '2026-12-07': 8 } },
    });
    expect(jsonBody(listed)).toEqual({
      settings: { weekly: 40, days: { '2026-12-07': 8 } },
      rows: [
        {
          date: '2026-12-07',
          capacity: 8,
          reserved: 0,
          sold: 0,
          left: 8,
          orders: 2,
          bottles: 9,
          dispatchDay: true,
        },
        {
          date: '2026-12-14',
          capacity: 40,
          reserved: 0,
          sold: 0,
          left: 40,
          orders: 0,
          bottles: 0,
          dispatchDay: true,
        },
      ],
    });
    expect(jsonBody(back)).toMatchObject({ date: '2026-12-07', settings: { weekly: 40, days: {} } });
    expect(jsonBody(none)).toMatchObject({
      date: '2026-12-14',
      settings: { weekly: 40, days: { '2026-12-14': null } },
      rows: expect.arrayContaining([
        {
          date: '2026-12-07',
          capacity: 40,
          reserved: 0,
          sold: 0,
          left: 40,
          orders: 2,
          bottles: 9,
          dispatchDay: true,
        },
        { date: '2026-12-14', ...noLimit, orders: 0, bottles: 0, dispatchDay: true },
      ]),
    });
  });

  it("capacity: refuses a past day with the CLI's words (409), and bad input field by field (400)", async () => {
    const past = await call('POST', '/functions/v1/admin/capacity', {
      body: { date: '2026-11-30', bottles: 5 },
    });
    const far = await call('POST', '/functions/v1/admin/capacity', {
      body: { date: '2099-06-03', bottles: 5 },
    });
    const bad = await call('POST', '/functions/v1/admin/capacity', { body: { date: 'soon', bottles: -1 } });
    const defaultTwice = await call('POST', '/functions/v1/admin/capacity', {
      body: { date: 'default', bottles: 'default' },
    });
    const weeks = await call('GET', '/functions/v1/admin/capacity', { query: { weeks: '53' } });

    expect(past.statusCode).toBe(409);
    expect(jsonBody(past)).toEqual({
      error: '2026-11-30 is past: its capacity can no longer change anything.',
    });
    // A date in a week means that week's dispatch day: Wednesday 3 June 2099 is Monday 1 June's.
    expect(far.statusCode).toBe(409);
    expect(jsonBody(far)).toEqual({
      error:
        "Monday 1 June 2099 (2099-06-01) is beyond the 8 weeks checkout sells: the last day it can sell now is Monday 1 February 2027 (2027-02-01). Set that day's capacity once it is within them.",
    });
    expect(bad.statusCode).toBe(400);
    expect(jsonBody(bad)).toMatchObject({
      fields: {
        date: 'Give a date as YYYY-MM-DD, or default.',
        bottles: 'Bottles is a whole number from 0 to 10000, null (no limit) or default.',
      },
    });
    expect(jsonBody(defaultTwice)).toMatchObject({
      fields: { bottles: 'default goes with a date: it makes that day follow the weekly default again.' },
    });
    expect(weeks.statusCode).toBe(400);
    expect(jsonBody(weeks)).toMatchObject({ fields: { weeks: 'Weeks is a whole number from 1 to 52.' } });
  });
});

describe("admin API: a dispatch day's files", () => {
  it('the Click & Drop CSV of a day, as an attachment, one row per undispatched order', async () => {
    const result = await call('GET', '/functions/v1/admin/dispatch-csv', { query: { date: '2026-12-07' } });

    expect(result.statusCode).toBe(200);
    expect(result.headers).toMatchObject({
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': 'attachment; filename="click-and-drop-2026-12-07.csv"',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    const lines = String(result.body).split('\r\n');
    expect(lines[0]).toBe(
      'Full name,Address line 1,Address line 2,Address line 3,City,County,Postcode,Country,Email,Phone,Order reference,Special instructions,Weight (kg),Package size,Service code,Planned despatch date',
    );
    expect(lines[1]).toBe(
      `"Customer 2","2 Pond Lane","","","Bristol","","BS1 4DJ","United Kingdom","week2@example.com","07700 900123","${first}","URGENT – LIVING CREATURES – HANDLE WITH CARE","1.090","small parcel","","07/12/26"`,
    );
    expect(lines[2]).toContain(`"${second}"`);
    expect(lines).toHaveLength(4);
  });

  it('without a date, the day status calls next; a Saturday means the dispatch day after it', async () => {
    const next = await call('GET', '/functions/v1/admin/dispatch-csv');
    const saturday = await call('GET', '/functions/v1/admin/dispatch-csv', { query: { date: '2026-12-05' } });

    expect(next.headers?.['content-disposition']).toBe(
      'attachment; filename="click-and-drop-2026-11-30.csv"',
    );
    expect(String(next.body)).toContain(`"${leftOver}"`);
    expect(saturday.headers?.['content-disposition']).toBe(
      'attachment; filename="click-and-drop-2026-12-07.csv"',
    );
  });

  it('the packing slips of a day, as a page that loads and runs nothing', async () => {
    const result = await call('GET', '/functions/v1/admin/packing-slips', { query: { date: '2026-12-07' } });

    expect(result.statusCode).toBe(200);
    expect(result.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'",
      'cache-control': 'no-store',
    });
    expect(result.body).toContain('<title>Packing slips: Monday 7 December</title>');
    expect(result.body).toContain('<p>2 orders, 9 bottles to prepare.</p>');
  });

  it('refuses a date that is not one, field by field (400)', async () => {
    const result = await call('GET', '/functions/v1/admin/packing-slips', { query: { date: '2026-02-30' } });

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result)).toMatchObject({ fields: { date: 'Give a date as YYYY-MM-DD.' } });
  });
});

describe('admin API: a delay, in the history of each order it moved', () => {
  it("moves the day's orders once, names the merchant once, and refuses a day in the past (409)", async () => {
    const body = { from: '2026-12-07', to: '2026-12-08', reason: 'supply' };
    const moved = await call('POST', '/functions/v1/admin/orders/delay', { body });
    const again = await call('POST', '/functions/v1/admin/orders/delay', { body });
    const backwards = await call('POST', '/functions/v1/admin/orders/delay', {
      body: { from: '2026-12-08', to: '2026-12-01', reason: 'weather' },
    });
    const detail = await call('GET', '/functions/v1/admin/order', {
      query: { reference: first.toLowerCase() },
    });

    expect(jsonBody(moved)).toEqual({
      from: '2026-12-07',
      to: '2026-12-08',
      moved: [first, second],
      emailed: [first, second],
      closed: {
        date: '2026-12-07',
        before: 'default',
        message:
          'Monday 7 December is now closed: checkout sells nothing more on it. To sell it again: set its capacity under Shop & capacity, or POST /functions/v1/admin/capacity {"date":"2026-12-07","bottles":"default"}.',
      },
    });
    expect(jsonBody(again)).toEqual({ from: '2026-12-07', to: '2026-12-08', moved: [], emailed: [] });
    expect(backwards.statusCode).toBe(409);
    expect(jsonBody(backwards)).toEqual({
      error: 'The new date, Tuesday 1 December, must be after Tuesday 8 December.',
    });
    expect(jsonBody(detail)).toMatchObject({
      record: {
        kind: 'order',
        reference: first,
        dispatchDate: '2026-12-08',
        delayedFrom: '2026-12-07',
        delayReason: 'supply',
        history: [
          { at: '2026-12-01T09:00:00.000Z', actor: 'Stripe', action: 'paid' },
          {
            at: '2026-12-02T10:00:00.000Z',
            actor: 'packer@live-aquatics.test',
            action: 'delayed',
            detail: '2026-12-07 to 2026-12-08, supply',
          },
        ],
      },
    });
  });
});

describe('admin API: days left from past weeks', () => {
  it('packs the earliest first; every other day before today is overdue, the rest later', async () => {
    const older = await seedOrder('2026-11-17T10:00:00Z', 4, 3);

    const result = await call('GET', '/functions/v1/admin/status');

    expect(jsonBody(result)).toMatchObject({
      today: '2026-12-02',
      next: { date: '2026-11-23', orders: 1, bottles: 3, references: [older] },
      overdue: [{ date: '2026-11-30', orders: 1, bottles: 3, references: [leftOver] }],
      later: [{ date: '2026-12-08', orders: 2, bottles: 9, references: [first, second] }],
    });
  });
});

describe('admin API: two references equal but for case', () => {
  it('answers 409 for the reference in another case, and the order for each exact one or its session id', async () => {
    await seedOrder('2026-11-17T11:00:00Z', 5, 3, 'cs_test_caseAAAAAAAAAAtwinREFERENCE');
    await seedOrder('2026-11-17T11:00:00Z', 6, 3, 'cs_test_caseBBBBBBBBBBtwinreference');

    const ambiguous = await call('GET', '/functions/v1/admin/order', {
      query: { reference: 'WINreference' },
    });
    const exact = await call('GET', '/functions/v1/admin/order', { query: { reference: 'winREFERENCE' } });
    const bySession = await call('GET', '/functions/v1/admin/order', {
      query: { reference: 'cs_test_caseBBBBBBBBBBtwinreference' },
    });

    expect(ambiguous.statusCode).toBe(409);
    expect(jsonBody(ambiguous)).toEqual({
      error: 'Reference WINreference matches 2 items; use the full Checkout Session id.',
    });
    expect(jsonBody(exact)).toMatchObject({
      record: { reference: 'winREFERENCE', customerEmail: 'week5@example.com' },
    });
    expect(jsonBody(bySession)).toMatchObject({
      record: { reference: 'winreference', customerEmail: 'week6@example.com' },
    });
  });
});

describe('admin API: the search reads a reference as a person does', () => {
  it('q=MZ7QO1KD41LP (O for 0, L for 1, any case) lists both orders whose references read alike', async () => {
    await seedOrder('2026-11-17T12:00:00Z', 7, 3, 'cs_test_lookalikeAAAAAAMz7Qo1Kd4IlP');
    await seedOrder('2026-11-17T12:00:00Z', 8, 3, 'cs_test_lookalikeBBBBBBMz7Q0iKd4L1P');

    const found = await call('GET', '/functions/v1/admin/orders', { query: { q: 'MZ7QO1KD41LP' } });

    expect(found.statusCode).toBe(200);
    const { records } = jsonBody(found) as { records: Array<{ reference: string }> };
    expect(records.map((record) => record.reference).sort()).toEqual(['Mz7Q0iKd4L1P', 'Mz7Qo1Kd4IlP']);
  });
});
