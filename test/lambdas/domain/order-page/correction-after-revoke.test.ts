import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { correctOrderAddress } from '../../../../lambdas/domain/operations/correct-address';
import { findOrder } from '../../../../lambdas/domain/operations/order-actions';
import {
  correctFromOrderPage,
  OrderPageNotFoundError,
} from '../../../../lambdas/domain/order-page/order-page';
import { revokeOrderPageLink } from '../../../../lambdas/domain/order-page/revoke-page-link';
import { orderPageKeys, orderPageToken } from '../../../../lambdas/domain/order-page-token';
import { orderKey } from '../../../../lambdas/domain/storage/orders-table';
import { createOrderPageHandler } from '../../../../lambdas/handlers/order-page/handler';
import { apiGatewayEvent } from '../../../support/api-gateway-event';
import { ORDER_PAGE_SECRET } from '../../../support/fulfilment-harness';
import { type OperationsHarness, startOperationsHarness } from '../operations/operations-harness';

// A revoke landing between the order page's token check and the correction's write, against
// dynalite and the SES stand-in: the correction is conditional on the page key the token named,
// so the old link changes nothing and answers as any revoked link does.
let h: OperationsHarness;
beforeAll(async () => {
  h = await startOperationsHarness();
});
afterEach(() => h.setNow(undefined));
afterAll(() => h?.close());

const keys = orderPageKeys(ORDER_PAGE_SECRET);
// Monday 23 November 2026's cut-off is Saturday 21 November, 12:00 in London.
const FRIDAY = new Date('2026-11-20T15:00:00Z');
const PAGE_KEY = 'AAECAwQFBgcICQoLDA0ODw';
const NEW_DETAILS = { address: '7 Heron Way\nLeeds', postcode: 'LS1 4AP', phone: '07700 900456' };

/** A paid order for Monday 23 November with a known page key, and the token of its link. */
async function orderWithLink(tail: string, email: string) {
  const sessionId = `cs_test_RevokeRace${tail}`;
  const seed = await h.seedOrder({
    sessionId,
    paidAt: '2026-11-20T09:00:00Z',
    dispatchDate: '2026-11-23',
    email,
  });
  await h.setAttributes(orderKey(sessionId), { pageKey: PAGE_KEY });
  h.setNow(FRIDAY);
  return { seed, token: orderPageToken(sessionId, PAGE_KEY, keys) };
}

/** The merchant's revoke, run just before the correction's conditional write reaches DynamoDB. */
function revokeBeforeTheCorrectionsWrite(reference: string) {
  let revoked = false;
  h.beforeCommand(
    'UpdateItemCommand',
    (input) => JSON.stringify(input).includes('address-corrected'),
    async () => {
      await revokeOrderPageLink(reference, { actor: 'merchant@live-aquatics.test' }, h.deps);
      revoked = true;
    },
  );
  return () => revoked;
}

const updatedEmails = async (to: string) =>
  (await h.emailsTo(to)).filter((email) => email.subject.includes('delivery details updated'));

const pageDeps = () => ({ ...h.deps, keys });

describe('a correction through the order page racing a revoke of its link', () => {
  it('is refused as a revoked link when the revoke lands after the token check: nothing changed, no email', async () => {
    const { seed, token } = await orderWithLink('DOMAIN000001', 'race.domain@example.com');
    const revoked = revokeBeforeTheCorrectionsWrite(seed.reference);

    const attempt = correctFromOrderPage(token, NEW_DETAILS, pageDeps());

    await expect(attempt).rejects.toBeInstanceOf(OrderPageNotFoundError);
    await expect(attempt).rejects.toThrow('No order page for this token');
    expect(revoked()).toBe(true);
    const stored = await findOrder(h.deps, seed.reference);
    expect(stored.deliveryAddress).toBe('1 Reed Row\nBath');
    expect(stored.postcode).toBe('BA1 1AA');
    expect(stored.customerPhone).toBe('07700 900123');
    expect(stored.pageKey).not.toBe(PAGE_KEY);
    expect(stored.history?.map((entry) => entry.action)).toEqual(['paid', 'page-link-revoked']);
    expect(stored.addressCorrectedEmailState).toBeUndefined();
    expect(await updatedEmails('race.domain@example.com')).toEqual([]);
  });

  it('answers the same plain 404 as the revoked link does afterwards', async () => {
    const { seed, token } = await orderWithLink('HANDLER00001', 'race.handler@example.com');
    const handler = createOrderPageHandler(pageDeps());
    const correction = (body: unknown) =>
      apiGatewayEvent({
        method: 'POST',
        path: '/functions/v1/order-page/address',
        headers: { 'content-type': 'application/json' },
        body,
      });
    revokeBeforeTheCorrectionsWrite(seed.reference);

    const raced = await handler(correction({ token, ...NEW_DETAILS }));
    const afterwards = await handler(correction({ token, ...NEW_DETAILS }));

    expect(raced.statusCode).toBe(404);
    expect(raced.body).toBe('{"error":"Not found."}');
    expect(raced.headers).toEqual(afterwards.headers);
    expect(afterwards.statusCode).toBe(404);
    expect(afterwards.body).toBe('{"error":"Not found."}');
    expect((await findOrder(h.deps, seed.reference)).postcode).toBe('BA1 1AA');
    expect(await updatedEmails('race.handler@example.com')).toEqual([]);
  });

  it("is still refused as changed meanwhile (409's words) when the details, not the key, changed", async () => {
    const { seed, token } = await orderWithLink('DETAILS00001', 'race.details@example.com');
    h.beforeCommand(
      'UpdateItemCommand',
      (input) => JSON.stringify(input).includes('address-corrected'),
      async () => {
        await h.setAttributes(orderKey(seed.sessionId), { postcode: 'BA2 2BB' });
      },
    );

    await expect(correctFromOrderPage(token, NEW_DETAILS, pageDeps())).rejects.toThrow(
      `${seed.reference} changed meanwhile (dispatched, delayed or corrected): look at it again before correcting.`,
    );
    expect((await findOrder(h.deps, seed.reference)).deliveryAddress).toBe('1 Reed Row\nBath');
  });

  it("the merchant's correction (no token) is not conditional on the page key: it lands after a revoke", async () => {
    const { seed } = await orderWithLink('MERCHANT0001', 'race.merchant@example.com');
    const order = await findOrder(h.deps, seed.reference);
    const revoked = revokeBeforeTheCorrectionsWrite(seed.reference);

    const result = await correctOrderAddress(
      order,
      NEW_DETAILS,
      { actor: 'merchant@live-aquatics.test' },
      h.deps,
    );

    expect(revoked()).toBe(true);
    expect(result).toMatchObject({ changed: true, email: 'sent' });
    const stored = await findOrder(h.deps, seed.reference);
    expect(stored.postcode).toBe('LS1 4AP');
    expect(stored.pageKey).not.toBe(PAGE_KEY);
    expect(await updatedEmails('race.merchant@example.com')).toHaveLength(1);
  });

  it('a correction through the current link after the revoke is applied', async () => {
    const { seed } = await orderWithLink('NEWLINK00001', 'race.newlink@example.com');
    const revoke = await revokeOrderPageLink(
      seed.reference,
      { actor: 'merchant@live-aquatics.test' },
      h.deps,
    );
    const pageKey = revoke.order.pageKey ?? '';
    const token = orderPageToken(seed.sessionId, pageKey, keys);

    const view = await correctFromOrderPage(token, NEW_DETAILS, pageDeps());

    expect(view.deliverTo).toEqual({
      address: '7 Heron Way\nLeeds',
      postcode: 'LS1 4AP',
      phone: '07700 900456',
    });
    expect((await findOrder(h.deps, seed.reference)).history?.at(-1)).toMatchObject({
      actor: 'customer',
      action: 'address-corrected',
    });
    expect(await updatedEmails('race.newlink@example.com')).toHaveLength(1);
  });
});
