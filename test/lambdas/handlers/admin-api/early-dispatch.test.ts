import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { toOrderItem } from '../../../../lambdas/domain/checkout/paid-checkout';
import { createAdminApiHandler, loadAdminDeps } from '../../../../lambdas/handlers/admin-api/handler';
import { logger } from '../../../../lambdas/lib/logger';
import type { HttpLambda } from '../../../../local/api-gateway-adapter';
import { withJwtAuthorizer } from '../../../../local/jwt-authorizer';
import {
  adminDispatchResponseSchema,
  adminErrorSchema,
  adminTrackingImportResponseSchema,
} from '../../../../shared/admin-responses';
import { quoteOrder } from '../../../../shared/pricing';
import { apiGatewayEvent, jsonBody } from '../../../support/api-gateway-event';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';
import { signingKey, signToken, TEST_CLIENT_ID, TEST_ISSUER } from '../../../support/jwt-tokens';
import { adminApiEnv } from './admin-env';

// Dispatching on the right day through the admin API, on the clock of Sunday 6 December 2026,
// 18:00 in London (GMT), after the weekly cut-off: the coming dispatch day is Monday 7 December;
// an order paid on Friday 4 December goes then, one paid on Saturday afternoon on Monday 14th.
// Against dynalite and the SES stand-in.
const NOW = new Date('2026-12-06T18:00:00Z');
const FRIDAY = '2026-12-04T09:00:00Z';
const SATURDAY_AFTERNOON = '2026-12-05T15:00:00Z';

let h: FulfilmentHarness;
let admin: HttpLambda;
const key = signingKey();
const token = signToken(key, { email: 'packer@live-aquatics.test' });

beforeAll(async () => {
  h = await startFulfilmentHarness();
  logger.setLogLevel('SILENT');
  const handler = createAdminApiHandler(async () => ({
    ...(await loadAdminDeps(adminApiEnv(h))),
    now: () => NOW,
  }));
  admin = withJwtAuthorizer(handler, { issuer: TEST_ISSUER, clientId: TEST_CLIENT_ID, jwks: key.jwks });
});
afterAll(() => h.close());

/** An order paid at `paidAt` (its dispatch day follows from it), written with the real mapping. */
async function seedOrder(
  paidAt: string,
  reference: string,
  name: string,
): Promise<{ reference: string; pk: string }> {
  const at = new Date(paidAt);
  const order = toOrderItem(
    {
      sessionId: `cs_test_early_api_${reference}`,
      paymentIntentId: `pi_test_${reference}`,
      livemode: false,
      quote: quoteOrder(3),
      currency: 'gbp',
      customer: {
        name,
        email: `${reference.toLowerCase()}@example.com`,
        phone: '07700 900123',
        address: '1 Pond Lane\nBristol',
        postcode: 'BS1 4DJ',
      },
      promisedDispatchDate: undefined,
      checkoutCreatedAt: at,
    },
    { now: at, cutoffHours: 36 },
  );
  await h.standIns.inspector.send(new PutCommand({ TableName: h.standIns.tableName, Item: order }));
  return { reference: order.reference, pk: order.pk };
}

async function stored(pk: string) {
  const { Item } = await h.standIns.inspector.send(
    new GetCommand({ TableName: h.standIns.tableName, Key: { pk } }),
  );
  return Item;
}

function post(path: string, body: unknown) {
  return admin(
    apiGatewayEvent({
      method: 'POST',
      path: `/functions/v1/admin/orders/${path}`,
      lowerCaseHeaders: true,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    }),
  );
}

const emailsTo = async (to: string) =>
  (await h.standIns.emails()).filter((email) => email.destination.to.includes(to));

/** The answer as the page reads it: the shared schema keeps every field the handler sent. */
function asRead<T extends z.ZodMiniType>(schema: T, body: unknown): z.output<T> {
  const parsed = z.parse(schema, body);
  expect(parsed).toEqual(body);
  return parsed;
}

describe('admin API: dispatch on the right day', () => {
  it('dispatches the coming Monday’s order and refuses Monday 14 December’s with its day (200); all refused is a 409', async () => {
    const coming = await seedOrder(FRIDAY, 'APICOMING001', 'Ann Pond');
    const later = await seedOrder(SATURDAY_AFTERNOON, 'APILATER0002', 'Ben Reed');

    const both = await post('dispatch', { references: [coming.reference, later.reference] });
    const again = await post('dispatch', { references: [later.reference] });

    const refused = {
      reference: later.reference,
      refused: `${later.reference} is planned for Monday 14 December: dispatch it now only on purpose (early).`,
      plannedFor: '2026-12-14',
    };
    expect(both.statusCode).toBe(200);
    expect(asRead(adminDispatchResponseSchema, jsonBody(both)).results).toEqual([
      expect.objectContaining({ reference: coming.reference, changed: true, email: 'sent' }),
      refused,
    ]);
    expect(again.statusCode).toBe(409);
    expect(asRead(adminDispatchResponseSchema, jsonBody(again))).toEqual({
      error: refused.refused,
      results: [refused],
    });
    expect(await stored(later.pk)).toMatchObject({ status: 'paid' });
    expect(await emailsTo(`${later.reference.toLowerCase()}@example.com`)).toEqual([]);
  });

  it('dispatches it with early: true, and its email says Sunday 6 December', async () => {
    const later = await seedOrder(SATURDAY_AFTERNOON, 'APIEARLY0003', 'Cat Fern');

    const result = await post('dispatch', { references: [later.reference], early: true });

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toMatchObject({
      results: [{ reference: later.reference, changed: true, email: 'sent', status: 'dispatched' }],
    });
    const [email, ...more] = await emailsTo('apiearly0003@example.com');
    expect(more).toEqual([]);
    expect(email?.body.text).toContain('Dispatched: Sunday 6 December\n');
  });

  it('a first tracking number dispatches: refused for Monday 14 December with its day (409), done with early', async () => {
    const later = await seedOrder(SATURDAY_AFTERNOON, 'APITRACK0004', 'Dan Moss');

    const refused = await post('tracking', { reference: later.reference, trackingNumber: 'AB123456789GB' });
    const early = await post('tracking', {
      reference: later.reference,
      trackingNumber: 'AB123456789GB',
      early: true,
    });

    expect(refused.statusCode).toBe(409);
    expect(asRead(adminErrorSchema, jsonBody(refused))).toEqual({
      error: 'APITRACK0004 is planned for Monday 14 December: dispatch it now only on purpose (early).',
      plannedFor: '2026-12-14',
    });
    expect(early.statusCode).toBe(200);
    expect(jsonBody(early)).toMatchObject({
      reference: later.reference,
      changed: true,
      email: 'sent',
      record: { status: 'dispatched', trackingNumber: 'AB123456789GB' },
    });
  });

  it('answers 400 for an early or a preview that is not true or false', async () => {
    const dispatch = await post('dispatch', { references: ['APICOMING001'], early: 'yes' });
    const imported = await post('tracking-import', { csv: 'x', preview: 1, early: 'no' });

    expect(dispatch.statusCode).toBe(400);
    expect(jsonBody(dispatch)).toMatchObject({ fields: { early: 'Early is true or false.' } });
    expect(jsonBody(imported)).toMatchObject({
      fields: { preview: 'Preview is true or false.', early: 'Early is true or false.' },
    });
  });
});

describe('admin API: the import previews, and refuses one order given two numbers', () => {
  it('previews each row: nothing changed, nothing sent', async () => {
    const coming = await seedOrder(FRIDAY, 'APIPREVIEW05', 'Eve Lake');
    const later = await seedOrder(SATURDAY_AFTERNOON, 'APIPREVIEW06', 'Fay Rush');
    const csv = `Order reference,Tracking number\r\n${coming.reference},AB123456789GB\r\n${later.reference},CD987654321GB\r\n`;
    const emailsBefore = (await h.standIns.emails()).length;
    const before = [await stored(coming.pk), await stored(later.pk)];

    const preview = await post('tracking-import', { csv, preview: true });
    const early = await post('tracking-import', { csv, preview: true, early: true });

    expect(preview.statusCode).toBe(200);
    expect(asRead(adminTrackingImportResponseSchema, jsonBody(preview))).toEqual({
      results: [],
      unmatched: [
        {
          line: 3,
          reference: 'APIPREVIEW06',
          trackingNumber: 'CD987654321GB',
          reason: 'APIPREVIEW06 is planned for Monday 14 December: dispatch it now only on purpose (early).',
          plannedFor: '2026-12-14',
        },
      ],
      preview: true,
      rows: [
        {
          line: 2,
          reference: 'APIPREVIEW05',
          trackingNumber: 'AB123456789GB',
          customerName: 'Eve Lake',
          customerEmail: 'apipreview05@example.com',
          action: 'dispatch',
        },
        {
          line: 3,
          reference: 'APIPREVIEW06',
          trackingNumber: 'CD987654321GB',
          customerName: 'Fay Rush',
          customerEmail: 'apipreview06@example.com',
          action: 'refused',
          plannedFor: '2026-12-14',
          reason: 'APIPREVIEW06 is planned for Monday 14 December: dispatch it now only on purpose (early).',
        },
      ],
    });
    expect(jsonBody(early)).toMatchObject({
      unmatched: [],
      preview: true,
      rows: [{ action: 'dispatch' }, { action: 'dispatch', plannedFor: '2026-12-14' }],
    });
    expect((await h.standIns.emails()).length).toBe(emailsBefore);
    expect([await stored(coming.pk), await stored(later.pk)]).toEqual(before);
  });

  it('imports a file giving one order two numbers: that order refused with both rows, no email; the file without preview too', async () => {
    const twice = await seedOrder(FRIDAY, 'APITWICE0007', 'Gus Pike');
    const csv = `Order reference,Tracking number\r\n${twice.reference},AB123456789GB\r\n${twice.reference},CD987654321GB\r\n`;
    const reason =
      'Two tracking numbers for APITWICE0007 in this file (AB123456789GB on line 2, CD987654321GB on line 3): fix the file and import again.';

    const preview = await post('tracking-import', { csv, preview: true });
    const imported = await post('tracking-import', { csv });

    expect(jsonBody(preview)).toMatchObject({
      rows: [
        { line: 2, action: 'refused', reason },
        { line: 3, action: 'refused', reason },
      ],
    });
    expect(imported.statusCode).toBe(200);
    expect(asRead(adminTrackingImportResponseSchema, jsonBody(imported))).toEqual({
      results: [],
      unmatched: [
        { line: 2, reference: 'APITWICE0007', trackingNumber: 'AB123456789GB', reason },
        { line: 3, reference: 'APITWICE0007', trackingNumber: 'CD987654321GB', reason },
      ],
    });
    expect(await stored(twice.pk)).toMatchObject({ status: 'paid' });
    expect(await emailsTo('apitwice0007@example.com')).toEqual([]);
  });
});
