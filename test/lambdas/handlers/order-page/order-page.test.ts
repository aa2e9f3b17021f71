import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderKey } from '../../../../lambdas/domain/storage/orders-table';
import { createOrderPageHandler, loadOrderPageDeps } from '../../../../lambdas/handlers/order-page/handler';
import { orderReference } from '../../../../shared/checkout-status';
import { apiGatewayEvent, jsonBody } from '../../../support/api-gateway-event';
import {
  type FulfilmentHarness,
  MERCHANT_EMAIL,
  ORDER_PAGE_SECRET,
  SITE_URL,
  startFulfilmentHarness,
} from '../../../support/fulfilment-harness';
import { TEST_SHOP_ID } from '../../../support/shop';
import { STAND_IN_REGION } from '../../../support/stand-ins';

let h: FulfilmentHarness;
beforeAll(async () => {
  h = await startFulfilmentHarness();
});
afterAll(() => h?.close());

async function orderPageEnv() {
  return loadOrderPageDeps({
    ORDERS_TABLE_NAME: h.standIns.tableName,
    DYNAMODB_ENDPOINT: h.standIns.dynamoEndpoint,
    SES_ENDPOINT: h.standIns.sesEndpoint,
    AWS_REGION: STAND_IN_REGION,
    SES_FROM_ADDRESS: 'orders@live-aquatics.test',
    MERCHANT_EMAIL,
    SELLER_NAME: 'Live Aquatics Ltd',
    SELLER_ADDRESS: '1 Pond Lane\nBristol BS1 4DJ',
    SELLER_EMAIL: 'hello@live-aquatics.test',
    SITE_URL,
    ORDER_PAGE_SECRET,
    // The standing order's changes call Stripe (ADR 0059).
    STRIPE_LIVEMODE: 'false',
    STRIPE_SECRET_KEY: 'sk_test_order_page',
    STRIPE_API_BASE: h.simulator.url,
    SHOP_ID: TEST_SHOP_ID,
  });
}

/** A paid order recorded by the real webhook, and the page link its confirmation email carries. */
async function paidOrderWithLink(name: string) {
  const session = await h.paidSession({
    customer: { name, address: '3 Mill Street\nOxford', postcode: 'OX1 1AA' },
  });
  const result = await h.webhook(h.delivery(await h.eventFor('checkout.session.completed', session.id)));
  expect(result.statusCode).toBe(200);
  const [confirmation] = (await h.emailsFor(session.id)).confirmation;
  const link = /https:\/\/shop\.test\/order\/([A-Za-z0-9_-]+)/.exec(confirmation?.body.text ?? '');
  if (!link?.[1]) throw new Error('the confirmation has no order page link');
  return {
    session,
    token: link[1],
    text: confirmation?.body.text ?? '',
    html: confirmation?.body.html ?? '',
  };
}

const view = (token: string) =>
  apiGatewayEvent({ method: 'GET', path: '/functions/v1/order-page', queryStringParameters: { token } });
const correction = (body: unknown) =>
  apiGatewayEvent({
    method: 'POST',
    path: '/functions/v1/order-page/address',
    headers: { 'content-type': 'application/json' },
    body,
  });

describe('the order page API', () => {
  it('opens from the link in the confirmation email, with the order and its planned dispatch', async () => {
    const { session, token, text, html } = await paidOrderWithLink('Ada Pagefirst');
    expect(text).toContain(`View your order: ${SITE_URL}/order/${token}`);
    expect(html).toContain(`href="${SITE_URL}/order/${token}"`);
    expect(token).not.toContain(session.id.slice(8));
    const handler = createOrderPageHandler(await orderPageEnv());

    const result = await handler(view(token));

    expect(result.statusCode).toBe(200);
    expect(result.headers?.['referrer-policy']).toBe('no-referrer');
    expect(result.headers?.['x-robots-tag']).toBe('noindex, nofollow');
    const body = jsonBody(result) as {
      reference: string;
      timeline: Array<{ title: string }>;
      status: string;
    };
    expect(body.reference).toBe(orderReference(session.id));
    expect(text).toContain(body.reference);
    expect(body.status).toBe('paid');
    expect(body.timeline.map((step) => step.title)[1]).toMatch(/^Dispatch planned for \w+day \d+ \w+$/);
    expect(JSON.stringify(body)).not.toContain(session.id);
  });

  it('answers the same plain 404 for a tampered, unknown, empty or revoked token', async () => {
    const { session, token } = await paidOrderWithLink('Bea Tamper');
    const deps = await orderPageEnv();
    const handler = createOrderPageHandler(deps);
    const swapped = `${token.slice(0, 20)}${token[20] === 'A' ? 'B' : 'A'}${token.slice(21)}`;

    const answers = [
      await handler(view(swapped)),
      await handler(view('nothing-like-a-token')),
      await handler(view('')),
    ];
    await h.standIns.inspector.send(
      new UpdateCommand({
        TableName: h.standIns.tableName,
        Key: { pk: orderKey(session.id) },
        UpdateExpression: 'SET pageKey = :other',
        ExpressionAttributeValues: { ':other': 'EBESExQVFhcYGRobHB0eHw' },
      }),
    );
    answers.push(await handler(view(token)));
    answers.push(
      await handler(correction({ token, address: '1 New Road\nOxford', postcode: 'OX1 1AA', phone: '' })),
    );

    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(answer.body).toBe('{"error":"Not found."}');
    }
  });

  it('answers a spelling of the link other than its own with the same plain 404 as a tampered token', async () => {
    const { token } = await paidOrderWithLink('Cai Spelling');
    const handler = createOrderPageHandler(await orderPageEnv());
    // The same bytes spelt otherwise: base64url's last character carries bits a decoder ignores.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const otherSpellings = [...alphabet]
      .map((last) => `${token.slice(0, -1)}${last}`)
      .filter((spelling) => spelling !== token)
      .filter((spelling) => Buffer.from(spelling, 'base64url').equals(Buffer.from(token, 'base64url')));
    const tampered = `${token.slice(0, 20)}${token[20] === 'A' ? 'B' : 'A'}${token.slice(21)}`;

    const answers = await Promise.all(otherSpellings.map((spelling) => handler(view(spelling))));
    const tamperedAnswer = await handler(view(tampered));
    const canonical = await handler(view(token));

    expect(otherSpellings.length).toBeGreaterThanOrEqual(3);
    expect(tamperedAnswer.statusCode).toBe(404);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(answer.body).toBe('{"error":"Not found."}');
      expect(answer.headers).toEqual(tamperedAnswer.headers);
    }
    expect(canonical.statusCode).toBe(200);
  });

  it('takes a correction before the cut-off: the order, its history and one short email', async () => {
    const { session, token } = await paidOrderWithLink('Cy Corrects');
    const handler = createOrderPageHandler(await orderPageEnv());

    const result = await handler(
      correction({ token, address: '  9 Canal Wharf \n Leeds ', postcode: 'ls1 4ap', phone: '07700 900999' }),
    );

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toMatchObject({
      deliverTo: { address: '9 Canal Wharf\nLeeds', postcode: 'LS1 4AP', phone: '07700 900999' },
    });
    const [order] = await h.ordersFor(session.id);
    expect(order?.deliveryAddress).toBe('9 Canal Wharf\nLeeds');
    expect(order?.postcode).toBe('LS1 4AP');
    const history = order?.history as Array<{ actor: string; action: string; detail?: string }>;
    expect(history.at(-1)?.detail).toMatch(
      /^address: 3 Mill Street, Oxford OX1 1AA → 9 Canal Wharf, Leeds LS1 4AP; phone: .* → 07700 900999$/,
    );
    expect(history.at(-1)).toMatchObject({
      actor: 'customer',
      action: 'address-corrected',
    });
    const updates = (await h.standIns.emails()).filter((email) =>
      email.subject.includes('delivery details updated'),
    );
    expect(updates).toHaveLength(1);
    expect(updates[0]?.body.text).toContain(`${SITE_URL}/order/${token}`);
  });

  it('refuses what the checkout would refuse, and anything after the cut-off', async () => {
    const { token } = await paidOrderWithLink('Di Late');
    const deps = await orderPageEnv();
    const handler = createOrderPageHandler(deps);

    const badPostcode = await handler(
      correction({ token, address: '1 Road\nTown', postcode: 'JE2 3AB', phone: '' }),
    );
    const late = await createOrderPageHandler({ ...deps, now: () => new Date(Date.now() + 30 * 86_400_000) })(
      correction({ token, address: '1 Road\nTown', postcode: 'LS1 4AP', phone: '' }),
    );
    const lateView = await createOrderPageHandler({
      ...deps,
      now: () => new Date(Date.now() + 30 * 86_400_000),
    })(view(token));

    expect(badPostcode.statusCode).toBe(400);
    expect(jsonBody(badPostcode)).toMatchObject({ fields: { postcode: expect.any(String) } });
    expect(late.statusCode).toBe(409);
    expect(jsonBody(late)).toMatchObject({ error: expect.stringContaining('please contact the seller') });
    expect(jsonBody(lateView)).not.toHaveProperty('correctionOpenUntil');
  });
});
