import { setTimeout } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { correctOrderAddress } from '../../../../lambdas/domain/operations/correct-address';
import {
  findOrder,
  markDispatched,
  updateTrackingNumber,
} from '../../../../lambdas/domain/operations/order-actions';
import { refundPart } from '../../../../lambdas/domain/operations/part-refund';
import { openOrderPage } from '../../../../lambdas/domain/order-page/order-page';
import { revokeOrderPageLink } from '../../../../lambdas/domain/order-page/revoke-page-link';
import { orderPageKeys } from '../../../../lambdas/domain/order-page-token';
import { ORDER_PAGE_SECRET } from '../../../support/fulfilment-harness';
import type { StoredEmail } from '../../../support/stand-ins';
import { type OperationsHarness, startOperationsHarness } from './operations-harness';

// Issue 46's races, each two changes to one order truly at once (Promise.all) against dynalite and
// the SES stand-in, in rounds with the second change started 0 to 21 ms after the first: the
// customer's last email of each kind states what is stored.
let h: OperationsHarness;
beforeAll(async () => {
  h = await startOperationsHarness();
});
afterAll(() => h?.close());

const MERCHANT = 'merchant@live-aquatics.test';
const ROUNDS = 8;
const keys = orderPageKeys(ORDER_PAGE_SECRET);

/** Runs both, the second `offsetMs` later, and waits for both whatever each does. */
async function atOnce(first: () => Promise<unknown>, second: () => Promise<unknown>, offsetMs: number) {
  await Promise.allSettled([first(), setTimeout(offsetMs).then(second)]);
}

/** The tracking number an email states (the dispatch email and the tracking update alike). */
function trackingIn(email: StoredEmail): string | undefined {
  return /tracking number (?:of your order \S+ is )?([A-Z]{2}\d{9}GB)/.exec(email.body.text ?? '')?.[1];
}

const lastWith = (emails: StoredEmail[], subject: string) =>
  emails.filter((email) => email.subject.includes(subject)).at(-1);

async function opens(text: string | undefined): Promise<boolean> {
  const token = /https:\/\/shop\.test\/order\/([A-Za-z0-9_-]+)/.exec(text ?? '')?.[1];
  if (token === undefined) return false;
  return openOrderPage(token, { table: h.deps.table, keys }).then(
    () => true,
    () => false,
  );
}

describe('two changes to one order at once: the last email of each kind states what is stored', () => {
  it('two tracking numbers at once (a correction and an import)', async () => {
    const rounds = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = await h.paidOrder();
      await markDispatched(
        order.reference,
        { actor: MERCHANT, early: true, trackingNumber: 'AB100000003GB' },
        h.deps,
      );
      await atOnce(
        () =>
          updateTrackingNumber(order.reference, { trackingNumber: 'AB200000003GB', actor: MERCHANT }, h.deps),
        () =>
          updateTrackingNumber(order.reference, { trackingNumber: 'AB300000003GB', actor: 'import' }, h.deps),
        round * 3,
      );
      const stored = await h.item(order.pk);
      const emails = await h.emailsTo(order.customerEmail);
      const last = emails.filter((email) => trackingIn(email) !== undefined).at(-1);
      rounds.push({ round, stored: stored?.trackingNumber, emailed: last && trackingIn(last) });
    }
    expect(rounds.filter((r) => r.stored !== r.emailed)).toEqual([]);
  });

  it('"mark dispatched" with one number racing an import with another', async () => {
    const rounds = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = await h.paidOrder();
      await atOnce(
        () =>
          markDispatched(
            order.reference,
            { actor: MERCHANT, early: true, trackingNumber: 'AB400000003GB' },
            h.deps,
          ),
        () =>
          markDispatched(
            order.reference,
            { actor: 'import', early: true, trackingNumber: 'AB500000003GB' },
            h.deps,
          ),
        round * 3,
      );
      const stored = await h.item(order.pk);
      const emails = await h.emailsTo(order.customerEmail);
      const last = emails.filter((email) => trackingIn(email) !== undefined).at(-1);
      const onItsWay = emails.filter((email) => email.subject.includes('is on its way'));
      rounds.push({
        round,
        stored: stored?.trackingNumber,
        emailed: last && trackingIn(last),
        dispatchEmails: onItsWay.length,
      });
    }
    expect(rounds.filter((r) => r.stored !== r.emailed || r.dispatchEmails !== 1)).toEqual([]);
  });

  it('two address corrections at once (the customer and the merchant)', async () => {
    const rounds = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = await h.paidOrder();
      await atOnce(
        async () =>
          correctOrderAddress(
            await findOrder(h.deps, order.reference),
            { address: '7 Heron Way\nLeeds', postcode: 'LS7 1AA', phone: '07700 900456' },
            { actor: 'customer' },
            { ...h.deps, cutoffHours: 0 },
          ),
        async () =>
          correctOrderAddress(
            await findOrder(h.deps, order.reference),
            { address: '8 Heron Way\nLeeds', postcode: 'LS8 1AA', phone: '07700 900456' },
            { actor: MERCHANT },
            { ...h.deps, cutoffHours: 0 },
          ),
        round * 3,
      );
      const stored = await h.item(order.pk);
      const last = lastWith(await h.emailsTo(order.customerEmail), 'delivery details updated');
      rounds.push({
        round,
        stored: stored?.postcode,
        emailed: /LS\d 1AA/.exec(last?.body.text ?? '')?.[0],
      });
    }
    expect(rounds.filter((r) => r.stored !== r.emailed)).toEqual([]);
  });

  it('a revoke racing a dispatch: no email after the new link carries a dead link', async () => {
    const rounds = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = await h.paidOrder();
      await atOnce(
        () => revokeOrderPageLink(order.reference, { actor: MERCHANT }, h.deps),
        () =>
          markDispatched(
            order.reference,
            { actor: MERCHANT, early: true, trackingNumber: 'AB600000003GB' },
            h.deps,
          ),
        round * 3,
      );
      const emails = await h.emailsTo(order.customerEmail);
      const newLink = emails.findIndex((email) => email.subject.includes('a new link to your order'));
      const after = emails.slice(newLink);
      const dead = [];
      for (const email of after) if (!(await opens(email.body.text))) dead.push(email.subject);
      rounds.push({ round, newLink, dead });
    }
    expect(rounds.filter((r) => r.newLink < 0 || r.dead.length > 0)).toEqual([]);
  });

  it('a revoke racing a part refund: the part refund email after the new link opens the page', async () => {
    const rounds = [];
    for (let round = 0; round < 4; round += 1) {
      const order = await h.paidOrder();
      await atOnce(
        () => revokeOrderPageLink(order.reference, { actor: MERCHANT }, h.deps),
        () =>
          refundPart(
            order.reference,
            { bottles: 1, delivery: false, reason: 'supply', actor: MERCHANT },
            h.deps,
          ),
        round * 5,
      );
      const emails = await h.emailsTo(order.customerEmail);
      const newLink = emails.findIndex((email) => email.subject.includes('a new link to your order'));
      const dead = [];
      for (const email of emails.slice(newLink))
        if (!(await opens(email.body.text))) dead.push(email.subject);
      const refunded = emails.filter((email) => email.subject.includes('refunded for order'));
      rounds.push({ round, newLink, dead, refunded: refunded.length });
    }
    expect(rounds.filter((r) => r.newLink < 0 || r.dead.length > 0 || r.refunded !== 1)).toEqual([]);
  });
});
