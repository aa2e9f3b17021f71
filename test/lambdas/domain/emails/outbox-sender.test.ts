import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  renderAddressCorrectedEmail,
  renderDelayEmail,
  renderDispatchEmail,
  renderPageLinkEmail,
  renderPartRefundEmail,
  renderRefundEmail,
  renderTrackingUpdateEmail,
} from '../../../../lambdas/domain/emails/order-updates';
import {
  drainOutbox,
  emailOutcome,
  LOCK_WAIT,
  renderEntry,
} from '../../../../lambdas/domain/emails/outbox-sender';
import { type EmailSender, PermanentEmailRefusalError } from '../../../../lambdas/domain/emails/send-email';
import { reconcileOrders } from '../../../../lambdas/domain/reconcile/reconcile-orders';
import type { ManagedOrder, OutboxEntry } from '../../../../lambdas/domain/storage/managed-order';
import type { OrderItem } from '../../../../lambdas/domain/storage/order';
import { readOrder } from '../../../../lambdas/domain/storage/outbox';
import { captureLogs } from '../../../support/logs';
import { type OperationsHarness, startOperationsHarness } from '../operations/operations-harness';

// The sender on its own, against dynalite and the SES stand-in: entries are written straight to
// the order (as a writer that stopped after its write leaves them), then drained.
let h: OperationsHarness;
beforeAll(async () => {
  h = await startOperationsHarness();
});
afterAll(() => h?.close());

const NOW = new Date('2026-12-06T21:00:00.000Z');
beforeEach(() => h.setNow(NOW));

const tracking = (
  order: OrderItem & { pageKey: string },
  version: number,
  number: string,
  state = 'pending',
) => ({
  kind: 'trackingUpdate',
  version,
  seq: 0,
  at: '2026-12-06T20:00:00.000Z',
  state,
  facts: {
    sessionId: order.sessionId,
    reference: order.reference,
    customerName: 'Pat Pond',
    customerEmail: order.customerEmail,
    pageKey: order.pageKey,
    trackingNumber: number,
  },
});

/** A paid order with `outbox` and `version` written as a stopped writer leaves them, due marker too. */
async function orderWith(
  entries: (order: OrderItem & { pageKey: string }) => Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  const paid = await h.paidOrder();
  // The facts carry the order's own page key, as a writer takes it.
  const order = { ...paid, pageKey: String((await h.item(paid.pk))?.pageKey) };
  const outbox = entries(order);
  const version = Object.keys(outbox).length;
  await h.setAttributes(order.pk, { outbox, version, outboxDueAt: '2026-12-06T20:00:00.000Z', ...extra });
  return order;
}

const trackingIn = (text: string | undefined) => /([A-Z]{2}\d{9}GB)/.exec(text ?? '')?.[1];
async function trackingEmails(order: OrderItem) {
  return (await h.emailsTo(order.customerEmail))
    .map((email) => trackingIn(email.body.text))
    .filter((number) => number !== undefined);
}
type Entry = {
  state: string;
  sentAt?: string;
  failedAt?: string;
  messageId?: string;
  failureReason?: string;
};
const entriesOf = (item: Record<string, unknown> | undefined) => item?.outbox as Record<string, Entry>;

type CommandInput = {
  Key?: { pk?: unknown };
  UpdateExpression?: string;
  ExpressionAttributeValues?: Record<string, unknown>;
};
/**
 * Counts the code's DynamoDB commands of one item by name while `act` runs; `edit` may change an
 * input first (a rival write that always lands first).
 */
async function commandsOf(
  pk: string,
  act: () => Promise<unknown>,
  edit?: (name: string, input: CommandInput) => void | Promise<void>,
) {
  const counts: Record<string, number> = {};
  const name = `count-${pk}`;
  const stack = h.shop.clients.documentClient.middlewareStack;
  stack.add(
    (next, context) => async (args) => {
      const input = args.input as CommandInput;
      const command = String(context.commandName);
      if (input.Key?.pk === pk) {
        counts[command] = (counts[command] ?? 0) + 1;
        await edit?.(command, input);
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    await act();
  } finally {
    stack.remove(name);
  }
  return counts;
}

/** The real sender, but `fail` decides per message whether it throws first. */
function failing(fail: (count: number) => Error | undefined): EmailSender & { calls: number } {
  const wrapper = {
    calls: 0,
    send: async (email: Parameters<EmailSender['send']>[0]) => {
      wrapper.calls += 1;
      const error = fail(wrapper.calls);
      if (error) throw error;
      return h.deps.sender.send(email);
    },
  };
  return wrapper;
}

describe('drainOutbox', () => {
  it('sends pending entries once each in version order, from their facts, and settles the order', async () => {
    // The stored number differs from the facts: the email states the facts the change wrote.
    const order = await orderWith(
      (o) => ({ e2: tracking(o, 2, 'AB200000003GB'), e1: tracking(o, 1, 'AB100000003GB') }),
      { trackingNumber: 'ZZ999999999GB' },
    );
    const result = await drainOutbox(order.sessionId, h.deps);
    expect(result).toEqual({ sent: ['e1', 'e2'], failed: [] });
    expect(await trackingEmails(order)).toEqual(['AB100000003GB', 'AB200000003GB']);
    const item = await h.item(order.pk);
    expect(entriesOf(item).e1).toMatchObject({ state: 'sent', sentAt: '2026-12-06T21:00:00.000Z' });
    expect(entriesOf(item).e2).toMatchObject({ state: 'sent', sentAt: '2026-12-06T21:00:00.000Z' });
    expect(entriesOf(item).e1?.messageId).toMatch(/.+/);
    expect(entriesOf(item).e1).not.toHaveProperty('claimToken');
    expect(item?.trackingUpdateEmailState).toBe('sent');
    expect(item?.trackingUpdateEmailSentAt).toBe('2026-12-06T21:00:00.000Z');
    expect(item).not.toHaveProperty('outboxLock');
    expect(item).not.toHaveProperty('outboxDueAt');
    // A second drain finds nothing: each entry is sent once.
    expect(await drainOutbox(order.sessionId, h.deps)).toEqual({ sent: [], failed: [] });
    expect(await trackingEmails(order)).toEqual(['AB100000003GB', 'AB200000003GB']);
  });

  it('SES refusing the recipient for good marks the entry and the kind failed, and goes on', async () => {
    const order = await orderWith((o) => ({
      e1: tracking(o, 1, 'AB100000003GB'),
      e2: tracking(o, 2, 'AB200000003GB'),
    }));
    const sender = failing((count) =>
      count === 1 ? new PermanentEmailRefusalError('MessageRejected') : undefined,
    );
    const result = await drainOutbox(order.sessionId, { ...h.deps, sender });
    expect(result).toEqual({ sent: ['e2'], failed: ['e1'] });
    const item = await h.item(order.pk);
    expect(entriesOf(item).e1).toMatchObject({
      state: 'failed',
      failedAt: '2026-12-06T21:00:00.000Z',
      failureReason: 'MessageRejected',
    });
    expect(entriesOf(item).e1).not.toHaveProperty('sentAt');
    expect(await trackingEmails(order)).toEqual(['AB200000003GB']);
    expect(item).not.toHaveProperty('outboxDueAt');
  });

  it('the failed flat state is set when the refused entry is the newest of its kind', async () => {
    const order = await orderWith((o) => ({ e1: tracking(o, 1, 'AB100000003GB') }));
    const sender = failing(() => new PermanentEmailRefusalError('InvalidParameterValue'));
    expect(await drainOutbox(order.sessionId, { ...h.deps, sender })).toEqual({ sent: [], failed: ['e1'] });
    const item = await h.item(order.pk);
    expect(item?.trackingUpdateEmailState).toBe('failed');
    expect(item?.trackingUpdateEmailFailedAt).toBe('2026-12-06T21:00:00.000Z');
    expect(item).not.toHaveProperty('trackingUpdateEmailSentAt');
    expect(item).not.toHaveProperty('outboxLock');
  });

  it('a transient SES error hands the entry back, so the next drain sends it once', async () => {
    const order = await orderWith((o) => ({ e1: tracking(o, 1, 'AB100000003GB') }));
    const sender = failing((count) => (count === 1 ? new Error('Throttling') : undefined));
    await expect(drainOutbox(order.sessionId, { ...h.deps, sender })).rejects.toThrow('Throttling');
    const handedBack = await h.item(order.pk);
    expect(entriesOf(handedBack).e1?.state).toBe('pending');
    expect(entriesOf(handedBack).e1).not.toHaveProperty('claimToken');
    expect(handedBack).not.toHaveProperty('outboxLock');
    expect(handedBack?.outboxDueAt).toBe('2026-12-06T20:00:00.000Z');
    expect(await trackingEmails(order)).toEqual([]);
    expect(await drainOutbox(order.sessionId, { ...h.deps, sender })).toEqual({ sent: ['e1'], failed: [] });
    expect(await trackingEmails(order)).toEqual(['AB100000003GB']);
    expect(sender.calls).toBe(2);
  });

  it('the flat state is left to a newer entry of the kind (here one refused before)', async () => {
    const order = await orderWith(
      (o) => ({ e1: tracking(o, 1, 'AB100000003GB'), e2: tracking(o, 2, 'AB200000003GB', 'failed') }),
      { trackingUpdateEmailState: 'failed' },
    );
    expect(await drainOutbox(order.sessionId, h.deps)).toEqual({ sent: ['e1'], failed: [] });
    const item = await h.item(order.pk);
    expect(entriesOf(item).e1?.state).toBe('sent');
    expect(item?.trackingUpdateEmailState).toBe('failed');
    expect(item).not.toHaveProperty('trackingUpdateEmailSentAt');
  });

  it('a newer entry of the kind written between the read and the mark keeps the flat state its own', async () => {
    const order = await orderWith((o) => ({ e1: tracking(o, 1, 'AB100000003GB') }), {
      trackingUpdateEmailState: 'pending',
    });
    const e2 = tracking(order, 2, 'AB200000003GB', 'superseded');
    // Another write lands just before the mark: version 2 with a newer entry of the same kind.
    h.beforeCommand(
      'UpdateItemCommand',
      (input) => JSON.stringify(input).includes('#flatState'),
      async () => {
        const item = await h.item(order.pk);
        await h.setAttributes(order.pk, { version: 2, outbox: { ...entriesOf(item), e2 } });
      },
    );
    expect(await drainOutbox(order.sessionId, h.deps)).toEqual({ sent: ['e1'], failed: [] });
    const item = await h.item(order.pk);
    expect(entriesOf(item).e1?.state).toBe('sent');
    expect(item?.trackingUpdateEmailState).toBe('pending');
    expect(item?.version).toBe(2);
  });

  it('a plain drain logs no warning, and the kind of the entry sent is newest even after a newer entry of another kind', async () => {
    const order = await orderWith((o) => ({
      e1: tracking(o, 1, 'AB100000003GB'),
      e2: { ...tracking(o, 2, 'AB200000003GB', 'sent'), kind: 'pageLink' },
    }));
    const logs = await captureLogs(async () => {
      expect(await drainOutbox(order.sessionId, h.deps)).toEqual({ sent: ['e1'], failed: [] });
    });
    expect(logs.filter((line) => line.level === 'WARN')).toEqual([]);
    const item = await h.item(order.pk);
    expect(item?.trackingUpdateEmailState).toBe('sent');
    expect(item?.trackingUpdateEmailSentAt).toBe('2026-12-06T21:00:00.000Z');
  });

  it('a lock taken over as stale while SES sends: the entry is left to the one that took it, with a warning', async () => {
    const order = await orderWith((o) => ({ e1: tracking(o, 1, 'AB100000003GB') }));
    // The rival took the lock, sent the entry, marked it and freed the lock before this send returned.
    const sender: EmailSender = {
      send: async (email) => {
        const stored = entriesOf(await h.item(order.pk));
        await h.setAttributes(order.pk, {
          outbox: { ...stored, e1: { ...stored.e1, state: 'sent', messageId: 'rival' } },
        });
        await h.removeAttributes(order.pk, ['outboxLock']);
        return h.deps.sender.send(email);
      },
    };
    const logs = await captureLogs(async () => {
      expect(await drainOutbox(order.sessionId, { ...h.deps, sender })).toEqual({ sent: ['e1'], failed: [] });
    });
    expect(logs.filter((line) => line.level === 'WARN').map((line) => [line.message, line.entry])).toEqual([
      ['Outbox email sent, but its lock had been taken over as stale: it may be sent twice', 'e1'],
    ]);
    const item = await h.item(order.pk);
    expect(entriesOf(item).e1).toMatchObject({ state: 'sent', messageId: 'rival' });
    expect(entriesOf(item).e1).not.toHaveProperty('sentAt');
    expect(item).not.toHaveProperty('trackingUpdateEmailState');
  });

  it('a drain of a settled order without a due marker reads it once and writes nothing', async () => {
    const order = await orderWith((o) => ({ e1: tracking(o, 1, 'AB100000003GB', 'sent') }));
    await h.removeAttributes(order.pk, ['outboxDueAt']);
    const commands = await commandsOf(order.pk, () => drainOutbox(order.sessionId, h.deps));
    expect(commands).toEqual({ GetItemCommand: 1 });
  });

  it('gives up after 100 steps when every claim loses to another write', async () => {
    const order = await orderWith((o) => ({ e1: tracking(o, 1, 'AB100000003GB') }));
    let result: unknown;
    const commands = await commandsOf(
      order.pk,
      async () => {
        result = await drainOutbox(order.sessionId, h.deps);
      },
      (_, input) => {
        // The claim's condition then never holds, as if the entry moved on each time before it.
        if (input.UpdateExpression?.includes(':sending') && input.ExpressionAttributeValues) {
          input.ExpressionAttributeValues[':read'] = 'moved-on';
        }
      },
    );
    expect(result).toEqual({ sent: [], failed: [] });
    expect(commands).toEqual({ GetItemCommand: 100, UpdateItemCommand: 100 });
    expect(entriesOf(await h.item(order.pk)).e1?.state).toBe('pending');
  });

  it('gives up marking after 100 attempts when every mark loses, and leaves the lock to go stale', async () => {
    const order = await orderWith((o) => ({ e1: tracking(o, 1, 'AB100000003GB') }));
    let marks = 0;
    await commandsOf(
      order.pk,
      () => drainOutbox(order.sessionId, h.deps),
      (_, input) => {
        if (input.UpdateExpression?.includes(':final') && input.ExpressionAttributeValues) {
          marks += 1;
          input.ExpressionAttributeValues[':token'] = 'not-ours';
        }
      },
    );
    expect(marks).toBe(100);
    const item = await h.item(order.pk);
    expect(entriesOf(item).e1?.state).toBe('sending');
    expect(await trackingEmails(order)).toEqual(['AB100000003GB']);
  });

  it('an entry no renderer can render is failed for good, and the entries after it still go out', async () => {
    const order = await orderWith((o) => ({
      e1: { ...tracking(o, 1, 'AB100000003GB'), kind: 'pageLink' },
      e2: tracking(o, 2, 'AB200000003GB'),
    }));
    // Without the order page, a page link email has no link to give: it can never be rendered.
    const deps = { ...h.deps, orderPage: undefined };
    expect(await drainOutbox(order.sessionId, deps)).toEqual({ sent: ['e2'], failed: ['e1'] });
    const item = await h.item(order.pk);
    expect(entriesOf(item).e1).toMatchObject({
      state: 'failed',
      failedAt: '2026-12-06T21:00:00.000Z',
      failureReason: `Unrenderable: Error: No order page link for ${order.reference}`,
    });
    expect(item?.pageLinkEmailState).toBe('failed');
    expect(item?.pageLinkEmailFailedAt).toBe('2026-12-06T21:00:00.000Z');
    expect(item).not.toHaveProperty('outboxLock');
    expect(item).not.toHaveProperty('outboxDueAt');
    expect(await trackingEmails(order)).toEqual(['AB200000003GB']);
    // Failed for good: the next drain does not try it again.
    expect(await drainOutbox(order.sessionId, deps)).toEqual({ sent: [], failed: [] });
  });

  it('waits for a live lock, then sends once the holder frees it', async () => {
    const order = await orderWith((o) => ({ e1: tracking(o, 1, 'AB100000003GB') }), {
      outboxLock: { token: 'other', entry: 'e0', at: '2026-12-06T20:59:59.000Z' },
    });
    setTimeout(() => void h.removeAttributes(order.pk, ['outboxLock']), 300);
    expect(await drainOutbox(order.sessionId, h.deps)).toEqual({ sent: ['e1'], failed: [] });
    expect(await trackingEmails(order)).toEqual(['AB100000003GB']);
  });

  it('leaves the rest to a live lock holder after its wait, sending nothing', async () => {
    expect(LOCK_WAIT).toEqual({ attempts: 40, intervalMs: 50 });
    // Taken 1 ms less than the two stale minutes ago: still live.
    const order = await orderWith((o) => ({ e1: tracking(o, 1, 'AB100000003GB') }), {
      outboxLock: { token: 'other', entry: 'e0', at: '2026-12-06T20:58:00.001Z' },
    });
    const started = Date.now();
    let result: unknown;
    const commands = await commandsOf(order.pk, async () => {
      result = await drainOutbox(order.sessionId, h.deps);
    });
    expect(result).toEqual({ sent: [], failed: [] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    // 40 waits of 50 ms, each after a read that found the lock, then the read that gives up.
    expect(commands).toEqual({ GetItemCommand: 41 });
    const item = await h.item(order.pk);
    expect(entriesOf(item).e1?.state).toBe('pending');
    expect(item?.outboxLock).toEqual({ token: 'other', entry: 'e0', at: '2026-12-06T20:58:00.001Z' });
    expect(item?.outboxDueAt).toBe('2026-12-06T20:00:00.000Z');
    expect(await trackingEmails(order)).toEqual([]);
    // Off byOutboxDue: each of the reconciler's sweeps below would otherwise wait 2 s on this lock.
    await h.removeAttributes(order.pk, ['outboxDueAt']);
  });

  it('takes over a lock left stale (two minutes) by a sender that stopped mid-send, and sends its entry', async () => {
    const order = await orderWith(
      (o) => ({
        e1: { ...tracking(o, 1, 'AB100000003GB', 'sending'), claimToken: 'dead' },
        e2: tracking(o, 2, 'AB200000003GB'),
      }),
      { outboxLock: { token: 'dead', entry: 'e1', at: '2026-12-06T20:58:00.000Z' } },
    );
    expect(await drainOutbox(order.sessionId, h.deps)).toEqual({ sent: ['e1', 'e2'], failed: [] });
    expect(await trackingEmails(order)).toEqual(['AB100000003GB', 'AB200000003GB']);
    const item = await h.item(order.pk);
    expect(item).not.toHaveProperty('outboxLock');
    expect(entriesOf(item).e1).not.toHaveProperty('claimToken');
  });

  it('removes the due marker of a settled order, but not when a write changed the version meanwhile', async () => {
    const settled = await orderWith((o) => ({ e1: tracking(o, 1, 'AB100000003GB', 'sent') }));
    expect(await drainOutbox(settled.sessionId, h.deps)).toEqual({ sent: [], failed: [] });
    expect(await h.item(settled.pk)).not.toHaveProperty('outboxDueAt');

    const raced = await orderWith((o) => ({ e1: tracking(o, 1, 'AB100000003GB', 'sent') }));
    h.beforeCommand(
      'UpdateItemCommand',
      (input) => JSON.stringify(input).includes('REMOVE #due'),
      () => h.setAttributes(raced.pk, { version: 2 }),
    );
    expect(await drainOutbox(raced.sessionId, h.deps)).toEqual({ sent: [], failed: [] });
    expect((await h.item(raced.pk))?.outboxDueAt).toBe('2026-12-06T20:00:00.000Z');
  });

  it('keeps the due marker while a lock is held on a settled order', async () => {
    const order = await orderWith((o) => ({ e1: tracking(o, 1, 'AB100000003GB', 'sent') }));
    h.beforeCommand(
      'UpdateItemCommand',
      (input) => JSON.stringify(input).includes('REMOVE #due'),
      () => h.setAttributes(order.pk, { outboxLock: { token: 'other', entry: 'e2', at: NOW.toISOString() } }),
    );
    await drainOutbox(order.sessionId, h.deps);
    expect((await h.item(order.pk))?.outboxDueAt).toBe('2026-12-06T20:00:00.000Z');
  });
});

describe('emailOutcome', () => {
  const order = {
    outbox: {
      e1: { kind: 'dispatch', state: 'sent' },
      e2: { kind: 'trackingUpdate', state: 'pending' },
    },
  } as unknown as ManagedOrder;
  it('is sent when an entry the change wrote has gone, or its drain sent one of the kind', () => {
    expect(emailOutcome(order, ['e1'], { sent: [], failed: [] }, 'dispatch')).toBe('sent');
    expect(emailOutcome(order, ['e2'], { sent: [], failed: [] }, 'trackingUpdate')).toBe('not-sent');
    expect(emailOutcome(order, ['e2'], { sent: ['e1'], failed: [] }, 'dispatch')).toBe('sent');
    expect(emailOutcome(order, ['e2'], { sent: ['e1'], failed: [] }, 'trackingUpdate')).toBe('not-sent');
    // One of two written entries gone is enough; an order with no outbox has sent none.
    expect(emailOutcome(order, ['e2', 'e1'], { sent: [], failed: [] }, 'dispatch')).toBe('sent');
    const none = {} as ManagedOrder;
    expect(emailOutcome(none, ['e1'], { sent: ['e1'], failed: [] }, 'dispatch')).toBe('not-sent');
  });
});

describe("the reconciler's sweep of entries left unsent", () => {
  it('drains every order in byOutboxDue and counts the emails; an order without the marker is not swept', async () => {
    const due = await orderWith((o) => ({ e1: tracking(o, 1, 'AB100000003GB') }));
    const unmarked = await orderWith((o) => ({ e1: tracking(o, 1, 'AB400000003GB') }));
    await h.removeAttributes(unmarked.pk, ['outboxDueAt']);
    const summary = await reconcileOrders(h.deps);
    expect(summary.emailsRetried).toBeGreaterThanOrEqual(1);
    expect(await trackingEmails(due)).toEqual(['AB100000003GB']);
    expect(await h.item(due.pk)).not.toHaveProperty('outboxDueAt');
    expect(entriesOf(await h.item(due.pk)).e1?.state).toBe('sent');
    expect(await trackingEmails(unmarked)).toEqual([]);
    expect(entriesOf(await h.item(unmarked.pk)).e1?.state).toBe('pending');
  });
});

describe("the reconciler's sweep when one order's drain fails", () => {
  it('goes on to the other due orders and counts the failed one', async () => {
    // Three orders whose sends fail (SES throttling) and one that sends: whichever the index
    // yields first, the good one is sent in this run.
    const stuck = await Promise.all(
      ['AB500000003GB', 'AB600000003GB', 'AB700000003GB'].map((number) =>
        orderWith((o) => ({ e1: tracking(o, 1, number) })),
      ),
    );
    const good = await orderWith((o) => ({ e1: tracking(o, 1, 'AB800000003GB') }));
    const sender: EmailSender = {
      send: async (email) => {
        if (email.to !== good.customerEmail) throw new Error('Throttling');
        return h.deps.sender.send(email);
      },
    };
    // Each stuck order counts once, and the run says it left work for the next.
    await expect(reconcileOrders({ ...h.deps, sender })).rejects.toThrow(
      'Reconciliation left 3 session(s) for the next run',
    );
    expect(await trackingEmails(good)).toEqual(['AB800000003GB']);
    for (const order of stuck) expect(entriesOf(await h.item(order.pk)).e1?.state).toBe('pending');
  });
});

describe('two drains of one order at once', () => {
  it('send each entry once, in version order', async () => {
    const order = await orderWith((o) => ({
      e1: tracking(o, 1, 'AB100000003GB'),
      e2: tracking(o, 2, 'AB200000003GB'),
      e3: tracking(o, 3, 'AB300000003GB'),
    }));
    const [first, second] = await Promise.all([
      drainOutbox(order.sessionId, h.deps),
      drainOutbox(order.sessionId, h.deps),
    ]);
    expect([...first.sent, ...second.sent].sort()).toEqual(['e1', 'e2', 'e3']);
    expect(await trackingEmails(order)).toEqual(['AB100000003GB', 'AB200000003GB', 'AB300000003GB']);
    expect(await h.item(order.pk)).not.toHaveProperty('outboxDueAt');
  });
});

describe('renderEntry (from the facts alone)', () => {
  const common = {
    sessionId: 'cs_test_a1b2c3d4e5f6ABCDEF123456',
    reference: 'ABCDEF123456',
    customerName: 'Pat Pond',
    customerEmail: 'pat@example.com',
    pageKey: 'AAAAAAAAAAAAAAAAAAAAAA',
  };
  const facts = {
    dispatch: {
      ...common,
      bottles: 3,
      dispatchDate: '2026-12-14',
      deliveryAddress: '1 Reed Row',
      postcode: 'BA1 1AA',
      trackingNumber: 'AB100000003GB',
    },
    trackingUpdate: { ...common, trackingNumber: 'AB200000003GB' },
    delay: {
      ...common,
      bottles: 3,
      dispatchDate: '2026-12-21',
      delayedFrom: '2026-12-14',
      delayReason: 'weather',
    },
    addressCorrected: {
      ...common,
      deliveryAddress: '2 Reed Row',
      postcode: 'LS8 1AA',
      customerPhone: '07700 900123',
      dispatchDate: '2026-12-14',
    },
    partRefund: {
      ...common,
      part: {
        refundId: 're_1',
        pence: 1000,
        bottles: 1,
        delivery: false,
        reason: 'doa',
        at: '2026-12-06T20:00:00.000Z',
      },
      partlyRefundedPence: 1000,
      totalPence: 4825,
    },
    refund: { ...common, bottles: 3, totalPence: 4825, refundReason: 'supply' },
    pageLink: common,
  } as const;
  const entryOf = (kind: OutboxEntry['kind']) =>
    ({
      kind,
      version: 1,
      seq: 0,
      at: '2026-12-06T20:00:00.000Z',
      state: 'pending',
      facts: facts[kind],
    }) as OutboxEntry;

  it('renders each kind with its own renderer, to the facts customer, replying to the seller', () => {
    const deps = { seller: h.deps.seller, orderPage: h.deps.orderPage };
    const link = h.deps.orderPage?.linkFor(common);
    expect(link).toMatch(/^https:\/\/shop\.test\/order\//);
    const seller = h.deps.seller;
    const expected = {
      dispatch: renderDispatchEmail(facts.dispatch, seller, link),
      trackingUpdate: renderTrackingUpdateEmail(facts.trackingUpdate, seller, link),
      delay: renderDelayEmail(facts.delay, '2026-12-14', 'weather', seller, link),
      addressCorrected: renderAddressCorrectedEmail(facts.addressCorrected, seller, link),
      partRefund: renderPartRefundEmail(facts.partRefund, facts.partRefund.part, seller, link),
      refund: renderRefundEmail(facts.refund, seller, link),
      pageLink: renderPageLinkEmail(facts.pageLink, seller, link ?? ''),
    };
    for (const kind of Object.keys(facts) as Array<OutboxEntry['kind']>) {
      expect(renderEntry(entryOf(kind), deps), kind).toEqual({
        to: 'pat@example.com',
        replyTo: 'hello@live-aquatics.test',
        content: expected[kind],
      });
    }
  });

  it('refuses a page link email without the order page', () => {
    expect(() => renderEntry(entryOf('pageLink'), { seller: h.deps.seller, orderPage: undefined })).toThrow(
      'No order page link for ABCDEF123456',
    );
  });
});

describe('an order written before the outbox, with a flat pending flag a crashed sender left', () => {
  /** A dispatched order as the flat send-once protocol left it: no outbox, no version, its email pending. */
  async function legacyOrder(values: Record<string, unknown> = {}) {
    const order = await h.paidOrder();
    await h.setAttributes(order.pk, {
      status: 'dispatched',
      dispatchedAt: '2026-12-06T19:00:00.000Z',
      trackingNumber: 'AB900000003GB',
      dispatchEmailState: 'pending',
      ...values,
    });
    return order;
  }

  it('is sent once from the order as stored, by way of an outbox entry', async () => {
    const order = await legacyOrder();
    expect(await drainOutbox(order.sessionId, h.deps)).toEqual({ sent: ['e1'], failed: [] });
    expect(await trackingEmails(order)).toEqual(['AB900000003GB']);
    const item = await h.item(order.pk);
    expect(item?.version).toBe(1);
    expect(Object.keys(entriesOf(item))).toEqual(['e1']);
    expect(entriesOf(item).e1).toMatchObject({
      kind: 'dispatch',
      state: 'sent',
      sentAt: '2026-12-06T21:00:00.000Z',
    });
    expect(item?.dispatchEmailState).toBe('sent');
    expect(item).not.toHaveProperty('outboxDueAt');
    expect(await drainOutbox(order.sessionId, h.deps)).toEqual({ sent: [], failed: [] });
    expect(await trackingEmails(order)).toEqual(['AB900000003GB']);
  });

  it('is not sent once the order has moved on from the state its email describes', async () => {
    const order = await legacyOrder({ status: 'refunded' });
    expect(await drainOutbox(order.sessionId, h.deps)).toEqual({ sent: [], failed: [] });
    expect(await trackingEmails(order)).toEqual([]);
    const item = await h.item(order.pk);
    expect(item).not.toHaveProperty('outbox');
    expect(item?.dispatchEmailState).toBe('pending');
  });

  it('taken over by another drain between the read and the write: written once', async () => {
    const order = await legacyOrder();
    let reads = 0;
    const commands = await commandsOf(
      order.pk,
      () => drainOutbox(order.sessionId, h.deps),
      async (command) => {
        reads += command === 'GetItemCommand' ? 1 : 0;
        // Before the writer's own read: the other drain has adopted the flag and sent it.
        if (command === 'GetItemCommand' && reads === 2) {
          await h.setAttributes(order.pk, { version: 1, dispatchEmailState: 'sent' });
        }
      },
    );
    expect(commands).toEqual({ GetItemCommand: 3 });
    expect((await h.item(order.pk))?.version).toBe(1);
    expect(await trackingEmails(order)).toEqual([]);
  });

  it("is found by the reconciler's run over the paid orders of its window", async () => {
    const order = await legacyOrder();
    const summary = await reconcileOrders(h.deps);
    expect(summary.emailsRetried).toBeGreaterThanOrEqual(1);
    expect(await trackingEmails(order)).toEqual(['AB900000003GB']);
    expect((await h.item(order.pk))?.dispatchEmailState).toBe('sent');
  });
});

describe('readOrder', () => {
  it('refuses an order that is not there', async () => {
    await expect(readOrder(h.deps.table, 'cs_test_gone')).rejects.toThrow('Order cs_test_gone disappeared');
  });
});
