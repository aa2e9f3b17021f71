import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutgoingEmail } from '../../../../lambdas/domain/emails/send-email';
import { openOrderPage } from '../../../../lambdas/domain/order-page/order-page';
import { revokeOrderPageLink } from '../../../../lambdas/domain/order-page/revoke-page-link';
import { orderPageKeys } from '../../../../lambdas/domain/order-page-token';
import { ORDER_PAGE_SECRET } from '../../../support/fulfilment-harness';
import { type OperationsHarness, startOperationsHarness } from '../operations/operations-harness';

// Two revokes of one order's link racing, against dynalite and the SES stand-in: whatever the
// interleaving, no email carries a link that a rival revoke has already killed.
let h: OperationsHarness;
beforeAll(async () => {
  h = await startOperationsHarness();
});
afterAll(() => h?.close());

const keys = orderPageKeys(ORDER_PAGE_SECRET);

/** Whether the order page link in an email's text opens the page now. */
async function opens(text: string | undefined): Promise<boolean> {
  const token = /https:\/\/shop\.test\/order\/([A-Za-z0-9_-]+)/.exec(text ?? '')?.[1];
  if (token === undefined) throw new Error('the email has no order page link');
  return openOrderPage(token, { table: h.deps.table, keys }).then(
    () => true,
    () => false,
  );
}

const newLinkEmails = async (to: string) =>
  (await h.emailsTo(to)).filter((email) => email.subject.includes('a new link to your order'));

async function settled<T>(promise: Promise<T>) {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

describe('revokeOrderPageLink: two revokes at once', () => {
  it('refuses the second while the first is emailing its link, whose link then opens the page', async () => {
    const order = await h.paidOrder({ customer: { email: 'race.during.send@example.com' } });
    let rival: ReturnType<typeof settled> | undefined;
    const sender = {
      // The rival revoke runs to its end while the first one's email is on its way to SES.
      send: async (message: OutgoingEmail) => {
        rival ??= settled(revokeOrderPageLink(order.reference, { actor: 'second@shop.test' }, h.deps));
        await rival;
        return h.deps.sender.send(message);
      },
    };

    const first = await revokeOrderPageLink(
      order.reference,
      { actor: 'first@shop.test' },
      { ...h.deps, sender },
    );

    expect(first.email).toBe('sent');
    expect(await rival).toEqual({
      error: expect.objectContaining({
        name: 'RefusedError',
        message: `Another revoke of the link of ${order.reference} changed it meanwhile or is emailing it now: look at the order again.`,
      }),
    });
    const emails = await newLinkEmails('race.during.send@example.com');
    expect(emails).toHaveLength(1);
    expect(await opens(emails[0]?.body.text)).toBe(true);
    expect((first.order.history ?? []).filter((entry) => entry.action === 'page-link-revoked')).toHaveLength(
      1,
    );
  });

  it('refuses the first when the second changed the key between its read and its write; the one email opens the page', async () => {
    const order = await h.paidOrder({ customer: { email: 'race.before.write@example.com' } });
    let rival: Awaited<ReturnType<typeof revokeOrderPageLink>> | undefined;
    h.beforeCommand(
      'UpdateItemCommand',
      (input) => JSON.stringify(input).includes('page-link-revoked'),
      async () => {
        rival = await revokeOrderPageLink(order.reference, { actor: 'second@shop.test' }, h.deps);
      },
    );

    const first = await settled(revokeOrderPageLink(order.reference, { actor: 'first@shop.test' }, h.deps));

    expect(first).toEqual({ error: expect.objectContaining({ name: 'RefusedError' }) });
    expect(rival?.email).toBe('sent');
    const emails = await newLinkEmails('race.before.write@example.com');
    expect(emails).toHaveLength(1);
    expect(await opens(emails[0]?.body.text)).toBe(true);
  });

  it('lets a revoke after the first one finished replace its link, each email opening the page when sent', async () => {
    const order = await h.paidOrder({ customer: { email: 'one.after.another@example.com' } });

    await revokeOrderPageLink(order.reference, { actor: 'first@shop.test' }, h.deps);
    const [firstEmail] = await newLinkEmails('one.after.another@example.com');
    expect(await opens(firstEmail?.body.text)).toBe(true);
    const second = await revokeOrderPageLink(order.reference, { actor: 'second@shop.test' }, h.deps);

    expect(second.email).toBe('sent');
    const emails = await newLinkEmails('one.after.another@example.com');
    expect(emails).toHaveLength(2);
    expect(await opens(emails[0]?.body.text)).toBe(false);
    expect(await opens(emails[1]?.body.text)).toBe(true);
  });
});
