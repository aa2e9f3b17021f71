import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clickAndDropCsv } from '../../../../lambdas/domain/fulfilment/dispatch-files';
import {
  correctOrderAddress,
  InvalidCorrectionError,
} from '../../../../lambdas/domain/operations/correct-address';
import { ordersToPack } from '../../../../lambdas/domain/operations/listing';
import { findOrder } from '../../../../lambdas/domain/operations/order-actions';
import {
  OrderPageNotFoundError,
  orderPageKeys,
  orderPageToken,
} from '../../../../lambdas/domain/order-page-token';
import { RefusedError } from '../../../../lambdas/domain/refusal';
import { orderKey } from '../../../../lambdas/domain/storage/orders-table';
import { ORDER_PAGE_SECRET, SELLER_EMAIL } from '../../../support/fulfilment-harness';
import { type OperationsHarness, startOperationsHarness } from './operations-harness';

let h: OperationsHarness;
beforeAll(async () => {
  h = await startOperationsHarness();
});
afterEach(() => h.setNow(undefined));
afterAll(() => h?.close());

const MERCHANT = 'merchant@live-aquatics.test';
// Monday 23 November 2026's cut-off is Saturday 21 November, 12:00 in London (36 hours before).
const FRIDAY = new Date('2026-11-20T15:00:00Z');
const SATURDAY_AFTER_NOON = new Date('2026-11-21T12:00:00Z');

const NEW_DETAILS = { address: '  7 Heron Way \n\n Leeds ', postcode: 'ls1 4ap', phone: '07700 900456' };

async function seeded(tail: string, email: string) {
  return h.seedOrder({
    sessionId: `cs_test_correct${tail}`,
    paidAt: '2026-11-20T09:00:00Z',
    dispatchDate: '2026-11-23',
    email,
  });
}

describe('correctOrderAddress', () => {
  it('before the cut-off: the order, its history, the CSV and one short email carry the new details', async () => {
    const seed = await seeded('BEFORECUT001', 'before.cut@example.com');
    h.setNow(FRIDAY);
    const order = await findOrder(h.deps, seed.reference);

    const result = await correctOrderAddress(order, NEW_DETAILS, { actor: MERCHANT }, h.deps);

    expect(result).toMatchObject({ changed: true, email: 'sent' });
    const stored = await findOrder(h.deps, seed.reference);
    expect(stored).toMatchObject({
      deliveryAddress: '7 Heron Way\nLeeds',
      postcode: 'LS1 4AP',
      customerPhone: '07700 900456',
    });
    expect(stored.history?.at(-1)).toEqual({
      at: '2026-11-20T15:00:00.000Z',
      actor: MERCHANT,
      action: 'address-corrected',
      detail:
        'address: 1 Reed Row, Bath BA1 1AA → 7 Heron Way, Leeds LS1 4AP; phone: 07700 900123 → 07700 900456',
    });
    const csv = clickAndDropCsv('2026-11-23', await ordersToPack('2026-11-23', h.deps));
    expect(csv).toContain('7 Heron Way');
    expect(csv).toContain('LS1 4AP');
    expect(csv).not.toContain('Reed Row');
    const emails = await h.emailsTo('before.cut@example.com');
    expect(emails.map((e) => e.subject)).toEqual([
      `Live Aquatics Ltd: delivery details updated for order ${seed.reference}`,
    ]);
    expect(emails[0]?.body.text).toContain('7 Heron Way');
  });

  it('the same details again change nothing and send nothing', async () => {
    const seed = await seeded('SAMEAGAIN001', 'same.again@example.com');
    h.setNow(FRIDAY);
    await correctOrderAddress(
      await findOrder(h.deps, seed.reference),
      NEW_DETAILS,
      { actor: MERCHANT },
      h.deps,
    );
    const again = await correctOrderAddress(
      await findOrder(h.deps, seed.reference),
      NEW_DETAILS,
      { actor: 'customer' },
      h.deps,
    );
    expect(again).toMatchObject({ changed: false, email: 'not-due' });
    expect(await h.emailsTo('same.again@example.com')).toHaveLength(1);
  });

  it('after the cut-off: refused, the order unchanged, no email', async () => {
    const seed = await seeded('AFTERCUT0001', 'after.cut@example.com');
    h.setNow(SATURDAY_AFTER_NOON);
    const order = await findOrder(h.deps, seed.reference);
    await expect(correctOrderAddress(order, NEW_DETAILS, { actor: 'customer' }, h.deps)).rejects.toThrow(
      /being packed for Monday 23 November.*contact the seller/,
    );
    const stored = await findOrder(h.deps, seed.reference);
    expect(stored.deliveryAddress).toBe('1 Reed Row\nBath');
    expect(stored.history?.map((e) => e.action)).toEqual(['paid']);
    expect(await h.emailsTo('after.cut@example.com')).toEqual([]);
  });

  it("refuses what the checkout refuses, with the checkout's words", async () => {
    const seed = await seeded('INVALIDPC001', 'invalid.pc@example.com');
    h.setNow(FRIDAY);
    const order = await findOrder(h.deps, seed.reference);
    const jersey = correctOrderAddress(
      order,
      { ...NEW_DETAILS, postcode: 'JE2 3AB' },
      { actor: 'c' },
      h.deps,
    );
    await expect(jersey).rejects.toBeInstanceOf(InvalidCorrectionError);
    await expect(jersey).rejects.toThrow(/only deliver to Great Britain and Northern Ireland/);
    await expect(
      correctOrderAddress(order, { ...NEW_DETAILS, address: '7 Heron\u200b Way' }, { actor: 'c' }, h.deps),
    ).rejects.toThrow('Please remove special or invisible characters.');
    expect((await findOrder(h.deps, seed.reference)).postcode).toBe('BA1 1AA');
  });

  it('refuses a dispatched order', async () => {
    const seed = await h.seedOrder({
      sessionId: 'cs_test_correct_DISPATCHED01',
      paidAt: '2026-11-20T09:00:00Z',
      dispatchDate: '2026-11-23',
      status: 'dispatched',
    });
    h.setNow(FRIDAY);
    await expect(
      correctOrderAddress(await findOrder(h.deps, seed.reference), NEW_DETAILS, { actor: 'c' }, h.deps),
    ).rejects.toBeInstanceOf(RefusedError);
  });

  it('a correction made meanwhile is not overwritten silently', async () => {
    const seed = await seeded('RACECORR0001', 'race.corr@example.com');
    h.setNow(FRIDAY);
    const stale = await findOrder(h.deps, seed.reference);
    await correctOrderAddress(stale, NEW_DETAILS, { actor: MERCHANT }, h.deps);
    await expect(
      correctOrderAddress(stale, { ...NEW_DETAILS, address: '9 Other Road\nYork' }, { actor: 'c' }, h.deps),
    ).rejects.toThrow(/changed meanwhile/);
    expect((await findOrder(h.deps, seed.reference)).deliveryAddress).toBe('7 Heron Way\nLeeds');
  });
});

describe('correctOrderAddress: what it says and writes, word for word', () => {
  it('an address change alone lists the address only; a three-line address reads on one line', async () => {
    const seed = await seeded('ADDRONLY0001', 'addr.only@example.com');
    h.setNow(FRIDAY);
    const order = await findOrder(h.deps, seed.reference);

    const result = await correctOrderAddress(
      order,
      { address: 'Flat 2\n7 Heron Way\nLeeds', postcode: 'BA1 1AA', phone: '07700 900123' },
      { actor: MERCHANT },
      h.deps,
    );

    expect(result.reference).toBe(seed.reference);
    expect(result.changed).toBe(true);
    expect(result.email).toBe('sent');
    expect(result.order.deliveryAddress).toBe('Flat 2\n7 Heron Way\nLeeds');
    // The answer is read after the send: the email stands as sent, not pending.
    expect(result.order.addressCorrectedEmailState).toBe('sent');
    expect(result.order.history?.at(-1)?.detail).toBe(
      'address: 1 Reed Row, Bath BA1 1AA → Flat 2, 7 Heron Way, Leeds BA1 1AA',
    );
  });

  it('a phone change alone lists the phone only, "(none)" for an empty one either side', async () => {
    const seed = await seeded('PHONEONLY001', 'phone.only@example.com');
    h.setNow(FRIDAY);
    const same = { address: '1 Reed Row\nBath', postcode: 'BA1 1AA' };

    await correctOrderAddress(
      await findOrder(h.deps, seed.reference),
      { ...same, phone: '' },
      { actor: MERCHANT },
      h.deps,
    );
    const second = await correctOrderAddress(
      await findOrder(h.deps, seed.reference),
      { ...same, phone: '07700 900777' },
      { actor: 'customer' },
      h.deps,
    );

    expect(second.order.history?.slice(-2)).toEqual([
      {
        at: '2026-11-20T15:00:00.000Z',
        actor: MERCHANT,
        action: 'address-corrected',
        detail: 'phone: 07700 900123 → (none)',
      },
      {
        at: '2026-11-20T15:00:00.000Z',
        actor: 'customer',
        action: 'address-corrected',
        detail: 'phone: (none) → 07700 900777',
      },
    ]);
  });

  it('the same details again answer the order as it was, unchanged, nothing written', async () => {
    const seed = await seeded('NOCHANGE0001', 'no.change@example.com');
    h.setNow(FRIDAY);
    const order = await findOrder(h.deps, seed.reference);

    const result = await correctOrderAddress(
      order,
      { address: '1 Reed Row\nBath', postcode: 'BA1 1AA', phone: '07700 900123' },
      { actor: MERCHANT },
      h.deps,
    );

    expect(result).toEqual({ reference: seed.reference, changed: false, email: 'not-due', order });
    expect((await findOrder(h.deps, seed.reference)).history?.map((e) => e.action)).toEqual(['paid']);
    expect(await h.emailsTo('no.change@example.com')).toEqual([]);
  });

  it('the email goes to the customer, replies to the seller, and links the order page when it has a key', async () => {
    const seed = await seeded('EMAILLINK001', 'email.link@example.com');
    const pageKey = 'AAECAwQFBgcICQoLDA0ODw';
    await h.setAttributes(orderKey(seed.sessionId), { pageKey });
    h.setNow(FRIDAY);

    await correctOrderAddress(
      await findOrder(h.deps, seed.reference),
      NEW_DETAILS,
      { actor: MERCHANT },
      h.deps,
    );

    const [email] = await h.emailsTo('email.link@example.com');
    expect(email?.destination.to).toEqual(['email.link@example.com']);
    expect(email?.replyTo).toEqual([SELLER_EMAIL]);
    const token = orderPageToken(seed.sessionId, pageKey, orderPageKeys(ORDER_PAGE_SECRET));
    expect(email?.body.text).toContain(`https://shop.test/order/${token}`);
  });

  it('without an order page set up, the email goes without a link', async () => {
    const seed = await seeded('NOPAGESETUP1', 'no.page@example.com');
    await h.setAttributes(orderKey(seed.sessionId), { pageKey: 'AAECAwQFBgcICQoLDA0ODw' });
    h.setNow(FRIDAY);

    const result = await correctOrderAddress(
      await findOrder(h.deps, seed.reference),
      NEW_DETAILS,
      { actor: MERCHANT },
      { ...h.deps, orderPage: undefined },
    );

    expect(result.email).toBe('sent');
    const [email] = await h.emailsTo('no.page@example.com');
    expect(email?.body.text).toContain('7 Heron Way');
    expect(email?.body.text).not.toContain('https://shop.test/order/');
  });

  it('refuses invalid details with the field and the error named', async () => {
    const seed = await seeded('INVALIDNAME1', 'invalid.name@example.com');
    h.setNow(FRIDAY);

    const attempt = correctOrderAddress(
      await findOrder(h.deps, seed.reference),
      { ...NEW_DETAILS, postcode: 'JE2 3AB' },
      { actor: MERCHANT },
      h.deps,
    );

    await expect(attempt).rejects.toMatchObject({
      name: 'InvalidCorrectionError',
      fields: { postcode: expect.stringMatching(/only deliver to Great Britain and Northern Ireland/) },
    });
  });

  it('refuses a dispatched order and a refunded one with their own words, before the cut-off too', async () => {
    const dispatched = await h.seedOrder({
      sessionId: 'cs_test_correct_DISPATCHWRD1',
      paidAt: '2026-11-20T09:00:00Z',
      dispatchDate: '2026-11-23',
      status: 'dispatched',
    });
    const refunded = await h.seedOrder({
      sessionId: 'cs_test_correct_REFUNDEDWRD1',
      paidAt: '2026-11-20T09:00:00Z',
      dispatchDate: '2026-11-23',
      status: 'refunded',
    });
    h.setNow(FRIDAY);

    await expect(
      correctOrderAddress(await findOrder(h.deps, dispatched.reference), NEW_DETAILS, { actor: 'c' }, h.deps),
    ).rejects.toThrow(
      new RefusedError('DISPATCHWRD1 has been dispatched: its address can no longer change.'),
    );
    await expect(
      correctOrderAddress(await findOrder(h.deps, refunded.reference), NEW_DETAILS, { actor: 'c' }, h.deps),
    ).rejects.toThrow(new RefusedError('REFUNDEDWRD1 was refunded: there is nothing to deliver.'));
    expect((await findOrder(h.deps, refunded.reference)).postcode).toBe('BA1 1AA');
  });

  it('a minute before the cut-off still corrects; at the cut-off it is closed, in these words', async () => {
    const open = await seeded('MINUTEBEFOR1', 'minute.before@example.com');
    const closed = await seeded('ATTHECUTOFF1', 'at.cutoff@example.com');

    h.setNow(new Date('2026-11-21T11:59:00Z'));
    const before = await correctOrderAddress(
      await findOrder(h.deps, open.reference),
      NEW_DETAILS,
      { actor: MERCHANT },
      h.deps,
    );
    h.setNow(SATURDAY_AFTER_NOON);
    const at = correctOrderAddress(
      await findOrder(h.deps, closed.reference),
      NEW_DETAILS,
      { actor: 'c' },
      h.deps,
    );

    expect(before.changed).toBe(true);
    await expect(at).rejects.toThrow(
      'ATTHECUTOFF1 is being packed for Monday 23 November (changes closed Sat 21 Nov, 12:00): please contact the seller.',
    );
  });

  it('with the page key its token named: refused as the plain 404 once a revoke replaced the key, as changed meanwhile while it stands', async () => {
    const seed = await seeded('PAGEKEYCOND1', 'page.key@example.com');
    await h.setAttributes(orderKey(seed.sessionId), { pageKey: 'AAECAwQFBgcICQoLDA0ODw' });
    h.setNow(FRIDAY);
    const read = await findOrder(h.deps, seed.reference);

    await h.setAttributes(orderKey(seed.sessionId), { postcode: 'BA2 2BB' });
    const stale = correctOrderAddress(
      read,
      NEW_DETAILS,
      { actor: 'customer', pageKey: 'AAECAwQFBgcICQoLDA0ODw' },
      h.deps,
    );
    await expect(stale).rejects.toBeInstanceOf(RefusedError);
    await expect(stale).rejects.toThrow(/PAGEKEYCOND1 changed meanwhile/);

    await h.setAttributes(orderKey(seed.sessionId), {
      postcode: 'BA1 1AA',
      pageKey: 'EBESExQVFhcYGRobHB0eHw',
    });
    const revoked = correctOrderAddress(
      read,
      NEW_DETAILS,
      { actor: 'customer', pageKey: 'AAECAwQFBgcICQoLDA0ODw' },
      h.deps,
    );
    await expect(revoked).rejects.toBeInstanceOf(OrderPageNotFoundError);
    await expect(revoked).rejects.not.toBeInstanceOf(RefusedError);

    const current = await correctOrderAddress(
      read,
      NEW_DETAILS,
      { actor: 'customer', pageKey: 'EBESExQVFhcYGRobHB0eHw' },
      h.deps,
    );
    expect(current.order.postcode).toBe('LS1 4AP');
    expect(await h.emailsTo('page.key@example.com')).toHaveLength(1);
  });
});
