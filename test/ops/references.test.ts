import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toOrderItem } from '../../lambdas/domain/checkout/paid-checkout';
import { backfillReferenceKeys } from '../../lambdas/domain/storage/reference-keys';
import { createCheckoutHandler, loadCheckoutDeps } from '../../lambdas/handlers/create-checkout/handler';
import { quoteOrder } from '../../shared/pricing';
import { PUBLIC_API_ROUTES } from '../../shared/public-routes';
import { apiGatewayEvent } from '../support/api-gateway-event';
import { TEST_SHOP_ID } from '../support/shop';
import { standInEnvironment } from '../support/stand-ins';
import { type OpsHarness, startOpsHarness } from './harness';

// References are the last 12 characters of a Checkout Session id, in mixed case; read off a
// screen or over the phone they lose their case, so the commands find them in any case.

let h: OpsHarness;
beforeAll(async () => {
  h = await startOpsHarness();
});
afterAll(async () => {
  await h?.close();
});

/** "nOARwiIJfKj0" → "NoarWIijFkJ0": the same reference with every letter's case turned over. */
function swapCase(text: string): string {
  return [...text].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
}

describe('references in any case', () => {
  it('mark-dispatched, refund and find take a reference in lower or swapped case', async () => {
    // Prepare
    // A reference is the session id's last 12 characters: about one in 700 has no capital letter,
    // which would make "in lower case" the same spelling; another order then, a few times at most.
    let order = await h.paidOrder({ customer: { email: 'any.case@example.com' } });
    for (let tries = 0; order.reference.toLowerCase() === order.reference && tries < 5; tries += 1) {
      order = await h.paidOrder({ customer: { email: 'any.case@example.com' } });
    }
    expect(order.reference.toLowerCase()).not.toBe(order.reference);

    // Act
    const dispatched = await h.orders(['mark-dispatched', order.reference.toLowerCase(), '--local']);
    const refunded = await h.orders(['refund', swapCase(order.reference), '--reason', 'doa', '--local']);
    const found = await h.orders(['find', order.reference.toLowerCase(), '--local']);

    // Assess
    expect(dispatched.code).toBe(0);
    expect(dispatched.out).toBe(`${order.reference}: dispatched; dispatch email sent.`);
    expect(refunded.code).toBe(0);
    expect(refunded.out).toMatch(new RegExp(`^${order.reference}: refunded £14.70 in full `));
    expect(found.code).toBe(0);
    expect(found.out).toContain(`${order.reference}  `);
    expect(found.out.split('\n').at(-1)).toBe('1 row.');
    const [item] = await h.shop.ordersFor(order.sessionId);
    // The index key: lower case, O as 0, I and L as 1.
    expect(item?.referenceKey).toBe(order.reference.toLowerCase().replace(/o/g, '0').replace(/[il]/g, '1'));
  });

  it('the confirmation, the merchant notice, the dispatch and refund emails set the reference in a monospace face', async () => {
    // Prepare
    const order = await h.paidOrder({ customer: { email: 'monospace@example.com' } });

    // Act
    expect((await h.orders(['mark-dispatched', order.reference, '--local'])).code).toBe(0);
    expect((await h.orders(['refund', order.reference, '--reason', 'other', '--local'])).code).toBe(0);

    // Assess
    const toCustomer = await h.emailsTo('monospace@example.com');
    const notice = (await h.emailsTo('merchant@live-aquatics.test')).filter((e) =>
      e.subject.includes(order.reference),
    );
    const emails = [...toCustomer, ...notice];
    expect(emails.map((e) => e.subject.replace(order.reference, 'REF'))).toEqual([
      expect.stringContaining('order REF confirmed'),
      'Live Aquatics Ltd: your order REF is on its way',
      'Live Aquatics Ltd: refund for order REF',
      expect.stringContaining('New order REF'),
    ]);
    for (const email of emails) {
      expect(email.body.html).toContain(`monospace">${order.reference}</td>`);
      expect(email.body.text).toContain(`eference: ${order.reference}\n`);
    }
  });

  it('a request reference (R and 11 upper-case hex digits) is found in lower case', async () => {
    // Prepare: a request taken through create-checkout in requests mode.
    expect((await h.orders(['pause', '--requests', '--local'])).code).toBe(0);
    const checkout = createCheckoutHandler(() =>
      loadCheckoutDeps({
        STRIPE_LIVEMODE: 'false',
        STRIPE_SECRET_KEY: 'sk_test_references',
        STRIPE_API_BASE: h.shop.simulator.url,
        SITE_URL: 'http://shop.test',
        SHOP_ID: TEST_SHOP_ID,
        ...standInEnvironment(h.shop.standIns),
      }),
    );
    const answer = await checkout(
      apiGatewayEvent({
        method: 'POST',
        path: PUBLIC_API_ROUTES.createCheckout.path,
        headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: {
          name: 'Rowan Request',
          email: 'rowan.request@example.com',
          phone: '07700 900456',
          address: '3 Reed Row\nBath',
          postcode: 'BA1 1AA',
          quantity: 3,
          subtotal: 9.75,
          shipping: 4.95,
          total: 14.7,
        },
      }),
    );
    expect(answer.statusCode).toBe(200);
    const [item] = (await h.shop.standIns.orderItems()).filter(
      (i) => i.customerEmail === 'rowan.request@example.com',
    );
    const reference = String(item?.reference);
    expect(reference).toMatch(/^R[0-9A-F]{11}$/);
    expect(item?.referenceKey).toBe(reference.toLowerCase());

    // Act
    const found = await h.orders(['find', reference.toLowerCase(), '--local']);
    const declined = await h.orders(['decline', reference.toLowerCase(), '--local']);

    // Assess
    expect(found.out).toContain(`${reference}  `);
    expect(found.out).toContain('request:requested');
    expect(declined.code).toBe(0);
    expect(declined.out).toMatch(new RegExp(`^${reference}: declined`));
    expect((await h.orders(['resume', '--local'])).code).toBe(0);
  });

  it('two references equal but for case: each exact reference finds its own order, one case for both is refused', async () => {
    // Prepare: two sessions whose ids end in the same letters, in other cases.
    const paidAt = new Date();
    const quote = quoteOrder(3);
    const [upper, lower] = [
      'cs_test_twinsAAAAAAAAAAAAAbCdEfGhIjKl',
      'cs_test_twinsBBBBBBBBBBBBBabcdefghijkl',
    ].map((sessionId, n) =>
      toOrderItem(
        {
          sessionId,
          paymentIntentId: `pi_test_twins${n}`,
          livemode: false,
          quote,
          currency: 'gbp',
          customer: {
            // Its name holds the reference too: found both ways, listed once.
            name: `Twin ${n} of abcdefghijkl`,
            email: `twin${n}@example.com`,
            phone: '07700 900123',
            address: '1 Pond Lane\nBristol',
            postcode: 'BS1 4DJ',
          },
          promisedDispatchDate: undefined,
          checkoutCreatedAt: paidAt,
        },
        { now: paidAt, cutoffHours: 36 },
      ),
    );
    for (const order of [upper, lower]) {
      await h.shop.standIns.inspector.send(
        new PutCommand({ TableName: h.shop.standIns.tableName, Item: order }),
      );
    }
    expect(upper?.reference).toBe('AbCdEfGhIjKl');
    expect(lower?.reference).toBe('abcdefghijkl');

    // Act
    const ambiguous = await h.orders(['mark-dispatched', 'ABCDEFGHIJKL', '--local']);
    const exactUpper = await h.orders(['mark-dispatched', 'AbCdEfGhIjKl', '--local']);
    const exactLower = await h.orders(['mark-dispatched', 'abcdefghijkl', '--local']);
    const both = await h.orders(['find', 'ABCDEFGHIJKL', '--local']);

    // Assess
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.err).toContain(
      'Reference ABCDEFGHIJKL matches 2 items; use the full Checkout Session id.',
    );
    expect(exactUpper.out).toBe('AbCdEfGhIjKl: dispatched; dispatch email sent.');
    expect(exactLower.out).toBe('abcdefghijkl: dispatched; dispatch email sent.');
    expect(both.out.split('\n').at(-1)).toBe('2 rows.');
  });
});

/** An order paid now for a session id of our choosing, written with the real mapping. */
async function orderForSession(sessionId: string, email: string, overrides: Record<string, unknown> = {}) {
  const paidAt = new Date();
  const item = toOrderItem(
    {
      sessionId,
      paymentIntentId: `pi_test_${sessionId.slice(-12)}`,
      livemode: false,
      quote: quoteOrder(3),
      currency: 'gbp',
      customer: {
        name: 'Read Aloud',
        email,
        phone: '07700 900123',
        address: '1 Pond Lane\nBristol',
        postcode: 'BS1 4DJ',
      },
      promisedDispatchDate: undefined,
      checkoutCreatedAt: paidAt,
    },
    { now: paidAt, cutoffHours: 36 },
  );
  await h.shop.standIns.inspector.send(
    new PutCommand({ TableName: h.shop.standIns.tableName, Item: { ...item, ...overrides } }),
  );
  return item;
}

describe('references as people read them: O for 0, I or L for 1', () => {
  it('find NFK8Z8KGZIOO, as read over the phone, finds NFK8Z8kgZiO0 and says it read it loosely', async () => {
    // Prepare
    const order = await orderForSession('cs_test_readaloudAAAAAAAAANFK8Z8kgZiO0', 'read.aloud@example.com');
    expect(order.reference).toBe('NFK8Z8kgZiO0');
    expect(order.referenceKey).toBe('nfk8z8kgz100');

    // Act
    const found = await h.orders(['find', 'NFK8Z8KGZIOO', '--local']);
    const dispatched = await h.orders(['mark-dispatched', 'nfk8z8kgz1oo', '--local']);

    // Assess
    expect(found.code).toBe(0);
    const lines = found.out.split('\n');
    expect(lines[0]).toBe(
      'Reference "NFK8Z8KGZIOO" read loosely (O as 0, I and L as 1, any case): 1 candidate; check which is meant.',
    );
    expect(found.out).toContain('NFK8Z8kgZiO0  ');
    expect(lines.at(-1)).toBe('1 row.');
    expect(dispatched.out).toBe('NFK8Z8kgZiO0: dispatched; dispatch email sent.');
  });

  it('two references equal once folded are both listed as candidates; a command by that reading is refused', async () => {
    // Prepare
    await orderForSession('cs_test_candidateAAAAAAAAMz7Qo1Kd4IlP', 'candidate.one@example.com');
    await orderForSession('cs_test_candidateBBBBBBBBMz7Q0iKd4L1P', 'candidate.two@example.com');

    // Act
    const found = await h.orders(['find', 'MZ7QO1KD41LP', '--local']);
    const refund = await h.orders(['refund', 'mz7qo1kd41lp', '--reason', 'doa', '--local']);

    // Assess
    expect(found.code).toBe(0);
    expect(found.out.split('\n')[0]).toBe(
      'Reference "MZ7QO1KD41LP" read loosely (O as 0, I and L as 1, any case): 2 candidates; check which is meant.',
    );
    expect(found.out).toContain('Mz7Qo1Kd4IlP  ');
    expect(found.out).toContain('Mz7Q0iKd4L1P  ');
    expect(found.out.split('\n').at(-1)).toBe('2 rows.');
    expect(refund.code).toBe(1);
    expect(refund.err).toContain('Reference mz7qo1kd41lp matches 2 items; use the full Checkout Session id.');
  });

  it('an order written before the fold is found as written until backfilled, then as read loosely too', async () => {
    // Prepare: its index key lower-cased, as every item was before the fold.
    await orderForSession('cs_test_legacyAAAAAAAAAAAAGh0stOrdeRl1', 'legacy.key@example.com', {
      referenceKey: 'gh0storderl1',
    });

    // Act
    const asWritten = await h.orders(['find', 'GH0STORDERL1', '--local']);
    const looseBefore = await h.orders(['find', 'GHOSTORDER11', '--local']);
    const rewritten = await backfillReferenceKeys({
      client: h.shop.standIns.inspector,
      tableName: h.shop.standIns.tableName,
    });
    const again = await backfillReferenceKeys({
      client: h.shop.standIns.inspector,
      tableName: h.shop.standIns.tableName,
    });
    const looseAfter = await h.orders(['find', 'GHOSTORDER11', '--local']);

    // Assess
    expect(asWritten.out).toContain('Gh0stOrdeRl1  ');
    expect(looseBefore.out).toBe('Nothing found for "GHOSTORDER11".');
    expect(rewritten).toBe(1);
    expect(again).toBe(0);
    const [item] = await h.shop.ordersFor('cs_test_legacyAAAAAAAAAAAAGh0stOrdeRl1');
    expect(item?.referenceKey).toBe('gh0st0rder11');
    expect(looseAfter.out).toContain('Gh0stOrdeRl1  ');
  });
});

describe('orders CLI: find', () => {
  it('finds by the whole email in any case, by part of the name, by postcode with or without its space', async () => {
    // Prepare
    const order = await h.paidOrder({
      customer: { email: 'marguerite@example.com', name: 'Marguerite Pondsworth', postcode: 'TR19 7AA' },
    });
    const other = await h.paidOrder({
      customer: { email: 'someone.else@example.com', name: 'Someone Else', postcode: 'BS1 4DJ' },
    });

    // Act
    const byEmail = await h.orders(['find', 'MARGUERITE@Example.COM', '--local']);
    const byName = await h.orders(['find', 'pondsw', '--local']);
    const byFullName = await h.orders(['find', 'marguerite', 'pondsworth', '--local']);
    const byPostcode = await h.orders(['find', 'tr197aa', '--local']);
    const byPartOfEmail = await h.orders(['find', 'marguerite@example', '--local']);

    // Assess
    for (const run of [byEmail, byName, byFullName, byPostcode]) {
      expect(run.code).toBe(0);
      expect(run.out).toContain(`${order.reference}  `);
      expect(run.out).not.toContain(other.reference);
      expect(run.out.split('\n').at(-1)).toBe('1 row.');
    }
    // An email is matched whole: part of one is not a name, and finds nothing.
    expect(byPartOfEmail.out).toBe('Nothing found for "marguerite@example".');
    const blank = await h.orders(['find', ' ', '--local']);
    // The admin API's list query refuses it: a typing mistake, with the usage.
    expect(blank.code).toBe(2);
    expect(blank.err).toContain('find: Say what to find.');
  });
});
