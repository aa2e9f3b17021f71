import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PlannedLaterError } from '../../../../lambdas/domain/operations/early-dispatch';
import { markDispatched, trackOrder } from '../../../../lambdas/domain/operations/order-actions';
import { type OperationsHarness, startOperationsHarness } from './operations-harness';

// Dispatching an order planned for a later dispatch day than the coming one, against dynalite and
// the SES stand-in, on an injected clock: Sunday 6 December 2026, 18:00 in London (GMT), after the
// weekly cut-off, so the coming dispatch day is Monday 7 December and new orders go on the 14th.
const SUNDAY_EVENING = new Date('2026-12-06T18:00:00Z');
const OPERATOR = 'packer@live-aquatics.test';

let h: OperationsHarness;
beforeAll(async () => {
  h = await startOperationsHarness();
});
afterEach(() => h.setNow(undefined));
afterAll(() => h?.close());

/** A paid order planned for `dispatchDate`, paid the Friday before it. */
function seed(suffix: string, dispatchDate: string, email: string) {
  return h.seedOrder({
    sessionId: `cs_test_early_${suffix}`,
    paidAt: '2026-12-04T09:00:00Z',
    dispatchDate,
    email,
  });
}

/** The conditional update that dispatches the order `pk`. */
const dispatchOf = (pk: string) => (input: unknown) => {
  const text = JSON.stringify(input);
  return text.includes(pk) && text.includes(':dispatched');
};

describe('markDispatched on the right day', () => {
  it('refuses an order planned for Monday 14 December on Sunday 6 December, naming the day; nothing changes or is sent', async () => {
    h.setNow(SUNDAY_EVENING);
    const order = await seed('EARLYLATE001', '2026-12-14', 'early.late@example.com');

    const refusal = await markDispatched(order.reference, { actor: OPERATOR }, h.deps).catch(
      (error: unknown) => error,
    );

    expect(refusal).toBeInstanceOf(PlannedLaterError);
    expect(refusal).toMatchObject({
      name: 'PlannedLaterError',
      message: 'EARLYLATE001 is planned for Monday 14 December: dispatch it now only on purpose (early).',
      plannedFor: '2026-12-14',
    });
    expect(await h.item(order.pk)).toMatchObject({ status: 'paid', dispatchDate: '2026-12-14' });
    expect(await h.item(order.pk)).not.toHaveProperty('dispatchedAt');
    expect(await h.emailsTo('early.late@example.com')).toEqual([]);
  });

  it('dispatches it with early, and the email says the day it really went: Sunday 6 December', async () => {
    h.setNow(SUNDAY_EVENING);
    const order = await seed('EARLYOKAY002', '2026-12-14', 'early.ok@example.com');

    const result = await markDispatched(order.reference, { actor: OPERATOR, early: true }, h.deps);

    expect([result.changed, result.email, result.order.status]).toEqual([true, 'sent', 'dispatched']);
    expect(await h.item(order.pk)).toMatchObject({
      status: 'dispatched',
      dispatchedAt: '2026-12-06T18:00:00.000Z',
    });
    const [email, ...more] = await h.emailsTo('early.ok@example.com');
    expect(more).toEqual([]);
    expect(email?.body.text).toContain('Dispatched: Sunday 6 December\n');
    expect(email?.body.text).not.toContain('14 December');
  });

  it('dispatches an order planned for the coming Monday without early, and one found dispatched already', async () => {
    h.setNow(SUNDAY_EVENING);
    const coming = await seed('EARLYCOMING3', '2026-12-07', 'early.coming@example.com');
    const later = await seed('EARLYDONE004', '2026-12-14', 'early.done@example.com');
    await markDispatched(later.reference, { actor: OPERATOR, early: true }, h.deps);

    const now = await markDispatched(coming.reference, { actor: OPERATOR }, h.deps);
    const again = await markDispatched(later.reference, { actor: OPERATOR }, h.deps);

    expect([now.changed, now.email]).toEqual([true, 'sent']);
    expect([again.changed, again.email, again.order.status]).toEqual([false, 'not-sent', 'dispatched']);
    expect(await h.emailsTo('early.coming@example.com')).toHaveLength(1);
    expect(await h.emailsTo('early.done@example.com')).toHaveLength(1);
  });

  it('on Tuesday 22 December the coming dispatch day is Tuesday 29 (Monday 28 is a bank holiday): later is Monday 4 January 2027', async () => {
    h.setNow(new Date('2026-12-22T10:00:00Z'));
    const holidayWeek = await seed('EARLYXMAS005', '2026-12-29', 'early.xmas@example.com');
    const newYear = await seed('EARLYJAN0006', '2027-01-04', 'early.jan@example.com');

    const dispatched = await markDispatched(holidayWeek.reference, { actor: OPERATOR }, h.deps);
    const refused = markDispatched(newYear.reference, { actor: OPERATOR }, h.deps);

    expect(dispatched.changed).toBe(true);
    await expect(refused).rejects.toThrow(
      'EARLYJAN0006 is planned for Monday 4 January 2027: dispatch it now only on purpose (early).',
    );
  });

  it('refuses a refunded order as refunded, whatever its day', async () => {
    h.setNow(SUNDAY_EVENING);
    const order = await h.seedOrder({
      sessionId: 'cs_test_early_EARLYREFUND7',
      paidAt: '2026-12-04T09:00:00Z',
      dispatchDate: '2026-12-14',
      status: 'refunded',
      email: 'early.refunded@example.com',
    });

    await expect(markDispatched(order.reference, { actor: OPERATOR }, h.deps)).rejects.toThrow(
      'EARLYREFUND7 was refunded: it cannot be dispatched.',
    );
  });

  it('refuses an order a delay moved to Monday 14 December between the read and the write', async () => {
    h.setNow(SUNDAY_EVENING);
    const order = await seed('EARLYRACE008', '2026-12-07', 'early.race@example.com');
    h.beforeCommand('UpdateItemCommand', dispatchOf(order.pk), () =>
      h.setAttributes(order.pk, { dispatchDate: '2026-12-14' }),
    );

    const refusal = markDispatched(order.reference, { actor: OPERATOR }, h.deps);

    await expect(refusal).rejects.toThrow(
      'EARLYRACE008 is planned for Monday 14 December: dispatch it now only on purpose (early).',
    );
    expect(await h.item(order.pk)).toMatchObject({ status: 'paid', dispatchDate: '2026-12-14' });
    expect(await h.emailsTo('early.race@example.com')).toEqual([]);
  });

  it('dispatches with early an order a delay moved between the read and the write', async () => {
    h.setNow(SUNDAY_EVENING);
    const order = await seed('EARLYRACE009', '2026-12-07', 'early.race2@example.com');
    h.beforeCommand('UpdateItemCommand', dispatchOf(order.pk), () =>
      h.setAttributes(order.pk, { dispatchDate: '2026-12-14' }),
    );

    const result = await markDispatched(order.reference, { actor: OPERATOR, early: true }, h.deps);

    expect([result.changed, result.email]).toEqual([true, 'sent']);
  });
});

describe('trackOrder: a first number dispatches', () => {
  it('dispatches a paid order with its number, refusing a later week without early', async () => {
    h.setNow(SUNDAY_EVENING);
    const coming = await seed('TRACKFIRST01', '2026-12-07', 'track.first@example.com');
    const later = await seed('TRACKLATER02', '2026-12-14', 'track.later@example.com');

    const first = await trackOrder(
      coming.reference,
      { trackingNumber: 'ab 123 456 789 gb', actor: OPERATOR },
      h.deps,
    );
    const refused = trackOrder(later.reference, { trackingNumber: 'CD987654321GB', actor: OPERATOR }, h.deps);

    expect([first.changed, first.email, first.order.trackingNumber]).toEqual([true, 'sent', 'AB123456789GB']);
    await expect(refused).rejects.toThrow(
      'TRACKLATER02 is planned for Monday 14 December: dispatch it now only on purpose (early).',
    );
    const early = await trackOrder(
      later.reference,
      { trackingNumber: 'CD987654321GB', actor: OPERATOR, early: true },
      h.deps,
    );
    expect([early.changed, early.order.status, early.order.trackingNumber]).toEqual([
      true,
      'dispatched',
      'CD987654321GB',
    ]);
    const [email] = await h.emailsTo('track.later@example.com');
    expect(email?.body.text).toContain('Dispatched: Sunday 6 December\n');
  });

  it("corrects a dispatched order's number with the short update email", async () => {
    h.setNow(SUNDAY_EVENING);
    const order = await seed('TRACKFIX0003', '2026-12-07', 'track.fix@example.com');
    await trackOrder(order.reference, { trackingNumber: 'AB123456789GB', actor: OPERATOR }, h.deps);

    const fixed = await trackOrder(
      order.reference,
      { trackingNumber: 'AB123456780GB', actor: OPERATOR },
      h.deps,
    );

    expect([fixed.changed, fixed.email, fixed.order.trackingNumber]).toEqual([true, 'sent', 'AB123456780GB']);
    expect((await h.emailsTo('track.fix@example.com')).map((email) => email.subject)).toEqual([
      expect.stringContaining('is on its way'),
      expect.stringContaining('tracking number for order TRACKFIX0003'),
    ]);
  });
});
