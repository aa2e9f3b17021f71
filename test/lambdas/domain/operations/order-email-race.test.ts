import { setTimeout } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markDispatched, refundOrder } from '../../../../lambdas/domain/operations/order-actions';
import { inputContaining } from '../../../support/aws-faults';
import { type OperationsHarness, startOperationsHarness } from './operations-harness';

let h: OperationsHarness;
beforeAll(async () => {
  h = await startOperationsHarness();
});
afterAll(() => h?.close());

const OPERATOR = 'merchant@live-aquatics.test';

/**
 * Holds the dispatch email of `reference` in the real SES client for `ms` before it leaves: a slow
 * SES answer, which is what lets a refund started later reach SES first.
 */
function slowDispatchEmail(reference: string, ms: number) {
  const name = `slow-dispatch-${reference}`;
  const isDispatch = inputContaining(`${reference} is on its way`);
  h.shop.clients.ses.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'SendEmailCommand' && isDispatch(args.input)) await setTimeout(ms);
      return next(args);
    },
    { step: 'initialize', name },
  );
  return () => h.shop.clients.ses.middlewareStack.remove(name);
}

describe('refund and mark-dispatched at the same moment (the merchant on two devices)', () => {
  it('never emails "on its way" after "refunded", in 20 interleavings; the order ends refunded', async () => {
    const runs = Array.from({ length: 20 }, (_, i) => ({
      // The dispatch email's SES call takes 0 to 160 ms; the refund starts 0 to 30 ms after the dispatch.
      sesMs: (i % 5) * 40,
      refundAfterMs: Math.floor(i / 5) * 10,
    }));
    const outcomes: Array<{ run: number; subjects: string[]; status: unknown; dispatchEmailState: unknown }> =
      [];
    for (const [run, { sesMs, refundAfterMs }] of runs.entries()) {
      const order = await h.paidOrder();
      const restore = slowDispatchEmail(order.reference, sesMs);
      try {
        await Promise.allSettled([
          markDispatched(order.reference, { actor: OPERATOR, early: true }, h.deps),
          setTimeout(refundAfterMs).then(() =>
            refundOrder(order.reference, { reason: 'supply', actor: OPERATOR }, h.deps),
          ),
        ]);
      } finally {
        restore();
      }
      const item = await h.item(order.pk);
      const subjects = (await h.emailsTo(order.customerEmail))
        .map((email) => email.subject)
        .filter((subject) => subject.includes('on its way') || subject.includes('refund for order'));
      outcomes.push({ run, subjects, status: item?.status, dispatchEmailState: item?.dispatchEmailState });
    }
    for (const outcome of outcomes) {
      const refund = outcome.subjects.findIndex((s) => s.includes('refund for order'));
      const lastDispatch = outcome.subjects.findLastIndex((s) => s.includes('on its way'));
      expect({ ...outcome, dispatchAfterRefund: lastDispatch > refund }).toMatchObject({
        status: 'refunded',
        dispatchAfterRefund: false,
      });
      expect(outcome.subjects.filter((s) => s.includes('refund for order'))).toHaveLength(1);
      // The dispatch email either went before the refund's, or was never sent and says so.
      expect(['sent', 'superseded']).toContain(outcome.dispatchEmailState);
    }
  });

  it('a dispatch email still due when the order is refunded is superseded and never sent', async () => {
    const order = await h.paidOrder();
    // Dispatched by a run that stopped before its email: its outbox entry is due.
    const at = new Date().toISOString();
    await h.setAttributes(order.pk, {
      status: 'dispatched',
      dispatchEmailState: 'pending',
      version: 1,
      outbox: {
        e1: {
          kind: 'dispatch',
          version: 1,
          seq: 0,
          at,
          state: 'pending',
          facts: {
            sessionId: order.sessionId,
            reference: order.reference,
            customerName: order.customerName,
            customerEmail: order.customerEmail,
            bottles: order.bottles,
            dispatchDate: order.dispatchDate,
            deliveryAddress: order.deliveryAddress,
            postcode: order.postcode,
          },
        },
      },
    });
    await refundOrder(order.reference, { reason: 'doa', actor: OPERATOR }, h.deps);
    await expect(markDispatched(order.reference, { actor: OPERATOR }, h.deps)).rejects.toThrow(
      `${order.reference} was refunded`,
    );
    expect(await h.item(order.pk)).toMatchObject({ status: 'refunded', dispatchEmailState: 'superseded' });
    const subjects = (await h.emailsTo(order.customerEmail)).map((email) => email.subject);
    expect(subjects.filter((s) => s.includes('on its way'))).toEqual([]);
  });
});
