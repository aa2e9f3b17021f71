import { MessageRejected, SESServiceException } from '@aws-sdk/client-ses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectAwsFault } from '../../../support/aws-faults';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';
import { captureLogs } from '../../../support/logs';

/** The value of one metric in the EMF lines written, one entry per line that carries it. */
function metricValues(lines: string[], name: string): unknown[] {
  return lines
    .map((line): Record<string, unknown> => JSON.parse(line))
    .flatMap((m) => (name in m ? [m[name]] : []));
}

function sesError(name: string, message: string): SESServiceException {
  return new SESServiceException({ name, $fault: 'client', message, $metadata: { httpStatusCode: 400 } });
}

// A permanent SES refusal of the customer's address must not stop the
// merchant notice, nor make the webhook fail for ever; transient failures still retry.
describe('stripe-webhook: the customer confirmation refused by SES', () => {
  let h: FulfilmentHarness;

  beforeAll(async () => {
    h = await startFulfilmentHarness();
  });
  afterAll(() => h.close());

  it('records a non-ASCII customer address as failed, answers 200, and tells the merchant once', async () => {
    // Prepare: a session made before the checkout refused such addresses.
    const session = await h.paidSession({ uncheckedEmail: `zoë.${Date.now()}@example.com` });
    const payload = await h.eventFor('checkout.session.completed', session.id);
    const metricsBefore = metricValues(h.metricLines, 'CustomerEmailRefused').length;

    // Act
    const first = await h.webhook(h.delivery(payload));
    const replay = await h.webhook(h.delivery(payload));

    // Assess
    expect([first.statusCode, replay.statusCode]).toEqual([200, 200]);
    expect(await h.counts(session.id)).toEqual({ orders: 1, confirmation: 0, merchantNotice: 1 });
    const [order] = await h.ordersFor(session.id);
    expect(order).toMatchObject({
      confirmationEmailState: 'failed',
      confirmationEmailFailureReason: 'address-not-ascii',
      confirmationEmailFailedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      merchantNoticeEmailState: 'sent',
    });
    expect(order).not.toHaveProperty('confirmationEmailClaimToken');
    const [notice] = (await h.emailsFor(session.id)).merchantNotice;
    expect(notice?.replyTo).toEqual([]);
    expect(notice?.body.text).toContain(
      'Action needed: the customer has NOT received their order confirmation',
    );
    expect(notice?.body.text).toContain('Customer email: NOT SENT: confirmation refused');
    expect(metricValues(h.metricLines, 'CustomerEmailRefused').slice(metricsBefore)).toEqual([1]);
  });

  it.each([
    ['InvalidParameterValue', sesError('InvalidParameterValue', "Missing final '@domain'")],
    [
      'MessageRejected',
      () =>
        new MessageRejected({
          message:
            'Email address is not verified. The following identities failed the check: someone@example.com',
          $metadata: { httpStatusCode: 400 },
        }),
    ],
  ] as const)(
    'records SES’s %s for the customer as failed, and still sends the notice with Reply-To',
    async (reason, error) => {
      // Prepare
      const session = await h.paidSession();
      const payload = await h.eventFor('checkout.session.completed', session.id);
      const refuses = injectAwsFault(h.clients.ses, {
        command: 'SendEmailCommand',
        when: 'before',
        matches: (input) => JSON.stringify(input).includes(session.customer_email ?? '?'),
        error: typeof error === 'function' ? error : () => error,
      });

      // Act
      const logs = await captureLogs(async () => {
        expect((await h.webhook(h.delivery(payload))).statusCode).toBe(200);
      });
      refuses.remove();

      // Assess
      expect(refuses.fired).toBe(1);
      expect(await h.counts(session.id)).toEqual({ orders: 1, confirmation: 0, merchantNotice: 1 });
      const [order] = await h.ordersFor(session.id);
      expect(order).toMatchObject({
        confirmationEmailState: 'failed',
        confirmationEmailFailureReason: reason,
      });
      expect((await h.emailsFor(session.id)).merchantNotice[0]?.replyTo).toEqual([session.customer_email]);
      expect(logs).toContainEqual(
        expect.objectContaining({ level: 'WARN', alarm: 'CustomerEmailRefused', reason }),
      );
      expect(JSON.stringify(logs)).not.toContain(session.customer_email);
    },
  );

  it('sends the merchant notice even when the confirmation fails transiently, then retries only the confirmation', async () => {
    // Prepare
    const session = await h.paidSession();
    const payload = await h.eventFor('checkout.session.completed', session.id);
    const throttled = injectAwsFault(h.clients.ses, {
      command: 'SendEmailCommand',
      when: 'before',
      matches: (input) => JSON.stringify(input).includes(session.customer_email ?? '?'),
      error: () => sesError('Throttling', 'Maximum sending rate exceeded.'),
    });

    // Act
    const first = await h.webhook(h.delivery(payload));
    const afterFirst = await h.counts(session.id);
    throttled.remove();
    const retry = await h.webhook(h.delivery(payload));

    // Assess
    expect(first.statusCode).toBe(500);
    expect(afterFirst).toEqual({ orders: 1, confirmation: 0, merchantNotice: 1 });
    expect(retry.statusCode).toBe(200);
    expect(await h.counts(session.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
  });

  it('keeps retrying when SES refuses our own sending identity: the operator fixes it, then it goes out', async () => {
    // Prepare
    const session = await h.paidSession();
    const payload = await h.eventFor('checkout.session.completed', session.id);
    const unverified = injectAwsFault(h.clients.ses, {
      command: 'SendEmailCommand',
      when: 'before',
      times: 2,
      error: () =>
        new MessageRejected({
          message:
            'Email address is not verified. The following identities failed the check: orders@live-aquatics.test',
          $metadata: { httpStatusCode: 400 },
        }),
    });

    // Act
    const first = await h.webhook(h.delivery(payload));
    unverified.remove();
    const retry = await h.webhook(h.delivery(payload));

    // Assess
    expect(first.statusCode).toBe(500);
    expect(retry.statusCode).toBe(200);
    expect(await h.counts(session.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
  });
});
