import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpsHarness, startOpsHarness } from './harness';

let h: OpsHarness;
beforeAll(async () => {
  h = await startOpsHarness();
});
afterAll(async () => {
  await h?.close();
});

const linkIn = (text: string | undefined) => /\/order\/([A-Za-z0-9_-]+)/.exec(text ?? '')?.[1];
const newLinkEmails = async (to: string) =>
  (await h.emailsTo(to)).filter((email) => email.subject.includes('a new link to your order'));

describe('orders CLI: revoke-link', () => {
  it('--help says what it does and exits 0', async () => {
    const run = await h.orders(['revoke-link', '--help']);

    expect(run.code).toBe(0);
    expect(run.out).toContain(
      'npm run orders -- revoke-link <reference> [--dry-run | --yes] [--local | --stage NAME]',
    );
    expect(run.out).toContain('every link sent so far opens nothing any more');
  });

  it('revokes the link and emails the customer a new one, once a run, the merchant in the history', async () => {
    const order = await h.paidOrder({ customer: { email: 'cli.revoke@example.com' } });

    const run = await h.orders(['revoke-link', order.reference, '--local'], { orderPage: true });

    expect(run.code, run.err).toBe(0);
    expect(run.out).toBe(
      `${order.reference}: order page link revoked (the old link no longer opens); new link emailed to cli.revoke@example.com.`,
    );
    const [email] = await newLinkEmails('cli.revoke@example.com');
    const [confirmation] = await h.emailsTo('cli.revoke@example.com');
    expect(linkIn(email?.body.text)).toBeDefined();
    expect(linkIn(email?.body.text)).not.toBe(linkIn(confirmation?.body.text));
    const [stored] = await h.shop.ordersFor(order.sessionId);
    expect(((stored?.history ?? []) as Array<{ actor: string; action: string }>).at(-1)).toMatchObject({
      actor: 'merchant@live-aquatics.test',
      action: 'page-link-revoked',
    });

    const again = await h.orders(['revoke-link', order.reference, '--local'], { orderPage: true });
    expect(again.code, again.err).toBe(0);
    expect(await newLinkEmails('cli.revoke@example.com')).toHaveLength(2);
  });

  it('with email down, says the old link is dead and the new one not sent, and how to send it', async () => {
    const order = await h.paidOrder({ customer: { email: 'cli.revoke.down@example.com' } });

    const run = await h.orders(['revoke-link', order.reference, '--local'], {
      orderPage: true,
      emailDown: true,
    });

    expect(run.code).toBe(1);
    expect(run.out).toBe('');
    expect(run.err).toContain(
      `${order.reference}: order page link revoked (the old link no longer opens), but the new link email could not be sent (HTTP 500). Nothing retries it by itself: run revoke-link ${order.reference} again once email works.`,
    );
    expect(await newLinkEmails('cli.revoke.down@example.com')).toEqual([]);

    const rerun = await h.orders(['revoke-link', order.reference, '--local'], { orderPage: true });
    expect(rerun.code, rerun.err).toBe(0);
    expect(await newLinkEmails('cli.revoke.down@example.com')).toHaveLength(1);
  });

  it('is refused where the order page is not set up, and for an unknown reference, sending nothing', async () => {
    const order = await h.paidOrder({ customer: { email: 'cli.revoke.none@example.com' } });

    const unset = await h.orders(['revoke-link', order.reference, '--local']);
    const unknown = await h.orders(['revoke-link', 'ZZZZZZZZZZZZ', '--local'], { orderPage: true });

    expect(unset.code).toBe(1);
    expect(unset.err).toContain('Refused: The order page is not set up here');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/^Refused: /m);
    expect(await newLinkEmails('cli.revoke.none@example.com')).toEqual([]);
  });
});
