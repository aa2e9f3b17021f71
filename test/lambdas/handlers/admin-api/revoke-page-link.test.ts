import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminApiHandler, loadAdminDeps } from '../../../../lambdas/handlers/admin-api/handler';
import { createOrderPageHandler, loadOrderPageDeps } from '../../../../lambdas/handlers/order-page/handler';
import { logger } from '../../../../lambdas/lib/logger';
import type { HttpLambda } from '../../../../local/api-gateway-adapter';
import { withJwtAuthorizer } from '../../../../local/jwt-authorizer';
import { orderReference } from '../../../../shared/checkout-status';
import { apiGatewayEvent, jsonBody } from '../../../support/api-gateway-event';
import {
  type FulfilmentHarness,
  MERCHANT_EMAIL,
  ORDER_PAGE_SECRET,
  SITE_URL,
  startFulfilmentHarness,
} from '../../../support/fulfilment-harness';
import { signingKey, signToken, TEST_CLIENT_ID, TEST_ISSUER } from '../../../support/jwt-tokens';
import { TEST_SHOP_ID } from '../../../support/shop';
import { STAND_IN_REGION } from '../../../support/stand-ins';

// The merchant's revoke of an order page link, through the admin Lambda behind the local JWT
// authorizer, then the order page Lambda: against dynalite, the SES stand-in and the simulator.
let h: FulfilmentHarness;
let admin: HttpLambda;
let orderPage: ReturnType<typeof createOrderPageHandler>;
const key = signingKey();
const merchantToken = signToken(key, { email: 'packer@live-aquatics.test' });

const shopEnv = () => ({
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
});

beforeAll(async () => {
  h = await startFulfilmentHarness();
  logger.setLogLevel('SILENT');
  const handler = createAdminApiHandler(() =>
    loadAdminDeps({
      ...shopEnv(),
      STRIPE_LIVEMODE: 'false',
      STRIPE_SECRET_KEY: 'sk_test_admin',
      STRIPE_API_BASE: h.simulator.url,
      SHOP_ID: TEST_SHOP_ID,
    }),
  );
  admin = withJwtAuthorizer(handler, { issuer: TEST_ISSUER, clientId: TEST_CLIENT_ID, jwks: key.jwks });
  orderPage = createOrderPageHandler(() =>
    loadOrderPageDeps({
      ...shopEnv(),
      STRIPE_LIVEMODE: 'false',
      STRIPE_SECRET_KEY: 'sk_test_order_page',
      STRIPE_API_BASE: h.simulator.url,
      SHOP_ID: TEST_SHOP_ID,
    }),
  );
});
afterAll(() => h?.close());

const revoke = (body: unknown) =>
  admin(
    apiGatewayEvent({
      method: 'POST',
      path: '/functions/v1/admin/orders/page-link',
      lowerCaseHeaders: true,
      headers: { authorization: `Bearer ${merchantToken}`, 'content-type': 'application/json' },
      body,
    }),
  );
const view = (token: string) =>
  orderPage(
    apiGatewayEvent({ method: 'GET', path: '/functions/v1/order-page', queryStringParameters: { token } }),
  );

const linkIn = (text: string | undefined) =>
  /https:\/\/shop\.test\/order\/([A-Za-z0-9_-]+)/.exec(text ?? '')?.[1];

/** A paid order recorded by the real webhook, and the token of its confirmation's link. */
async function paidOrderWithLink(email: string) {
  const session = await h.paidSession({ customer: { email } });
  const result = await h.webhook(h.delivery(await h.eventFor('checkout.session.completed', session.id)));
  expect(result.statusCode).toBe(200);
  const [confirmation] = (await h.emailsFor(session.id)).confirmation;
  const token = linkIn(confirmation?.body.text);
  if (!token) throw new Error('the confirmation has no order page link');
  return { session, token, reference: orderReference(session.id) };
}

const newLinkEmails = async (to: string) =>
  (await h.standIns.emails()).filter(
    (email) => email.destination.to.includes(to) && email.subject.includes('a new link to your order'),
  );

describe("the merchant's revoke of an order page link", () => {
  it('makes the old link a 404, the new one open the order, with one email and the merchant in the history', async () => {
    const { session, token: oldToken, reference } = await paidOrderWithLink('rita.revoke@example.com');
    expect((await view(oldToken)).statusCode).toBe(200);

    const result = await revoke({ reference });

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toMatchObject({ reference, email: 'sent' });
    const emails = await newLinkEmails('rita.revoke@example.com');
    expect(emails).toHaveLength(1);
    expect(emails[0]?.subject).toBe(`Live Aquatics Ltd: a new link to your order ${reference}`);
    expect(emails[0]?.body.text).toContain('The link in our earlier emails no longer works.');
    const newToken = linkIn(emails[0]?.body.text);
    if (!newToken) throw new Error('the email has no link');
    expect(newToken).not.toBe(oldToken);

    const old = await view(oldToken);
    expect(old.statusCode).toBe(404);
    expect(old.body).toBe('{"error":"Not found."}');
    const fresh = await view(newToken);
    expect(fresh.statusCode).toBe(200);
    expect(jsonBody(fresh)).toMatchObject({ reference });

    const [order] = await h.ordersFor(session.id);
    const history = order?.history as Array<{ actor: string; action: string; detail?: string }>;
    expect(history.at(-1)).toMatchObject({
      actor: 'packer@live-aquatics.test',
      action: 'page-link-revoked',
      detail: 'new link emailed to the customer',
    });
    expect(order?.pageLinkEmailState).toBe('sent');
  });

  it('sends one new email per revoke, each link killing the one before', async () => {
    const { reference } = await paidOrderWithLink('twice.revoked@example.com');

    await revoke({ reference });
    const [first] = await newLinkEmails('twice.revoked@example.com');
    await revoke({ reference });

    const emails = await newLinkEmails('twice.revoked@example.com');
    expect(emails).toHaveLength(2);
    const [firstToken, secondToken] = emails.map((email) => linkIn(email.body.text) ?? '');
    expect(linkIn(first?.body.text)).toBe(firstToken);
    expect((await view(firstToken ?? '')).statusCode).toBe(404);
    expect((await view(secondToken ?? '')).statusCode).toBe(200);
  });

  it('refuses an unknown reference and unknown fields, sending nothing', async () => {
    const before = (await h.standIns.emails()).length;

    expect((await revoke({ reference: 'LA-ZZZZZZZZ' })).statusCode).toBeGreaterThanOrEqual(400);
    expect((await revoke({ reference: 'LA-ZZZZZZZZ', resend: true })).statusCode).toBe(400);

    expect((await h.standIns.emails()).length).toBe(before);
  });
});
