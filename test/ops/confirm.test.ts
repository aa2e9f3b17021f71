import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmEarly, confirmPlan, NothingDoneError, plannedDayOf } from '../../ops/confirm';
import { type OpsHarness, startOpsHarness } from './harness';

let h: OpsHarness;
beforeAll(async () => {
  h = await startOpsHarness();
});
afterAll(async () => {
  await h?.close();
});

const NO_TERMINAL =
  'Nothing done: no terminal to ask in. Run again with --yes to do it (or --dry-run to only see it).';

const refundsOf = (paymentIntent: string | undefined) =>
  h.shop.simulator.refunds.filter((r) => r.payment_intent === paymentIntent);
const refundEmails = async (to: string) =>
  (await h.emailsTo(to)).filter((e) => e.subject.startsWith('Live Aquatics Ltd: refund for order'));

async function statusOf(sessionId: string) {
  const [item] = await h.shop.ordersFor(sessionId);
  return item?.status;
}

describe('orders CLI: refund asks first', () => {
  it('without a terminal and without --yes: prints the plan, refunds nothing, exit 1', async () => {
    // Prepare
    const order = await h.paidOrder({
      customer: { name: 'Ada Pennington', email: 'ask.script@example.com' },
    });

    // Act
    const run = await h.orders(['refund', order.reference, '--reason', 'doa', '--local'], {
      confirm: 'as typed',
    });

    // Assess
    expect(run.code).toBe(1);
    expect(run.out).toBe(
      `Refund ${order.reference} (Ada Pennington <ask.script@example.com>) £14.70 in full through Stripe; the customer gets the refund email (reason doa).`,
    );
    expect(run.err).toContain(NO_TERMINAL);
    expect(run.asked).toEqual([]);
    expect(await statusOf(order.sessionId)).toBe('paid');
    expect(refundsOf(order.paymentIntentId)).toHaveLength(0);
    expect(await refundEmails('ask.script@example.com')).toHaveLength(0);
  });

  it('with --yes and no terminal: refunds, once', async () => {
    const order = await h.paidOrder({ customer: { email: 'ask.yes@example.com' } });

    const run = await h.orders(['refund', order.reference, '--reason', 'doa', '--yes', '--local'], {
      confirm: 'as typed',
    });

    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(
      /: refunded £14\.70 in full \(Stripe refund re_\w+, reason doa\); refund email sent\.$/,
    );
    expect(await statusOf(order.sessionId)).toBe('refunded');
    expect(refundsOf(order.paymentIntentId).map((r) => r.amount)).toEqual([1470]);
  });

  it('--dry-run prints the plan naming the customer and the amount, changes nothing, exit 0', async () => {
    const order = await h.paidOrder({
      quantity: 6,
      customer: { name: 'Bea Newer', email: 'ask.dry@example.com' },
    });

    const full = await h.orders(['refund', order.reference, '--reason', 'supply', '--dry-run', '--local']);
    const part = await h.orders(
      ['refund', order.reference, '--bottles', '2', '--delivery', '--reason', 'doa', '--dry-run', '--local'],
      { confirm: 'as typed' },
    );

    expect(full.code).toBe(0);
    expect(full.out).toBe(
      [
        `Refund ${order.reference} (Bea Newer <ask.dry@example.com>) £24.45 in full through Stripe; the customer gets the refund email (reason supply).`,
        'Dry run: nothing changed.',
      ].join('\n'),
    );
    expect(part.code).toBe(0);
    expect(part.out).toBe(
      [
        `Refund ${order.reference} (Bea Newer <ask.dry@example.com>) £11.45 for 2 bottles and the delivery through Stripe (£24.45 of £24.45 not refunded yet); the customer gets the refund email (reason doa).`,
        'Dry run: nothing changed.',
      ].join('\n'),
    );
    expect(await statusOf(order.sessionId)).toBe('paid');
    expect(refundsOf(order.paymentIntentId)).toHaveLength(0);
    expect(await refundEmails('ask.dry@example.com')).toHaveLength(0);
  });

  it('in a terminal: "n" refunds nothing (exit 1), "y" refunds', async () => {
    const order = await h.paidOrder({ customer: { email: 'ask.terminal@example.com' } });

    const no = await h.orders(['refund', order.reference, '--reason', 'other', '--local'], {
      confirm: { terminal: ['n'] },
    });
    expect(no.code).toBe(1);
    expect(no.asked).toEqual(['Go ahead? [y/N] ']);
    expect(no.err).toContain('Nothing done.');
    expect(await statusOf(order.sessionId)).toBe('paid');
    expect(refundsOf(order.paymentIntentId)).toHaveLength(0);

    const yes = await h.orders(['refund', order.reference, '--reason', 'other', '--local'], {
      confirm: { terminal: ['y'] },
    });
    expect(yes.code, yes.err).toBe(0);
    expect(yes.asked).toEqual(['Go ahead? [y/N] ']);
    expect(yes.out.split('\n')[0]).toBe(
      `Refund ${order.reference} (Zoë Brontë <ask.terminal@example.com>) £14.70 in full through Stripe; the customer gets the refund email (reason other).`,
    );
    expect(yes.out).toContain(`${order.reference}: refunded £14.70 in full`);
    expect(await statusOf(order.sessionId)).toBe('refunded');
    expect(refundsOf(order.paymentIntentId).map((r) => r.amount)).toEqual([1470]);
    expect(await refundEmails('ask.terminal@example.com')).toHaveLength(1);
  });

  it('without --reason is a usage error (exit 2), before anything is asked or done', async () => {
    const order = await h.paidOrder({ customer: { email: 'ask.reason@example.com' } });

    const run = await h.orders(['refund', order.reference, '--yes', '--local']);

    expect(run.code).toBe(2);
    expect(run.err).toContain(
      [
        "refund: --reason is needed: supply, doa or other (the customer's email says it)",
        'Usage: npm run orders -- refund <reference> --reason supply|doa|other [--bottles N] [--delivery] [--again] [--dry-run | --yes] [--local | --stage NAME]',
        '(`npm run orders -- refund --help` says more.)',
      ].join('\n'),
    );
    expect(await statusOf(order.sessionId)).toBe('paid');
    expect(refundsOf(order.paymentIntentId)).toHaveLength(0);
  });
});

describe('orders CLI: mark-dispatched asks first', () => {
  it("names each customer's email and the day, notes an order planned for a later week, and dispatches on y", async () => {
    // Prepare: Sunday 6 December 2026 after the cut-off; one order for Monday 7 December, one paid
    // after Saturday noon, so planned for Monday 14 December.
    h.setNow(new Date('2026-12-06T13:00:00Z'));
    const coming = await h.orderPaidAt(new Date('2026-12-01T10:00:00Z'), 4501);
    const later = await h.orderPaidAt(new Date('2026-12-06T12:30:00Z'), 4502);

    try {
      // Act
      const dry = await h.orders([
        'mark-dispatched',
        coming.reference,
        later.reference,
        '--dry-run',
        '--local',
      ]);
      const script = await h.orders(['mark-dispatched', coming.reference, '--local'], {
        confirm: 'as typed',
      });
      const asked = await h.orders(['mark-dispatched', `${coming.reference}=JX123456785GB`, '--local'], {
        confirm: { terminal: ['yes'] },
      });

      // Assess
      expect(dry.code).toBe(0);
      expect(dry.out).toBe(
        [
          'Mark 2 orders dispatched today, Sunday 6 December 2026; each customer gets the dispatch email once:',
          `  ${coming.reference}  Customer 4501 <customer4501@example.com>: dispatch email`,
          `  ${later.reference}  Customer 4502 <customer4502@example.com>: dispatch email; planned for Monday 14 December 2026, so early (asked again)`,
          'Dry run: nothing changed.',
        ].join('\n'),
      );
      expect(script.code).toBe(1);
      expect(script.err).toContain(NO_TERMINAL);
      expect(asked.code, asked.err).toBe(0);
      expect(asked.asked).toEqual(['Go ahead? [y/N] ']);
      expect(asked.out).toBe(
        [
          'Mark 1 order dispatched today, Sunday 6 December 2026; each customer gets the dispatch email once:',
          `  ${coming.reference}  Customer 4501 <customer4501@example.com>: dispatch email (tracking JX123456785GB)`,
          `${coming.reference}: dispatched (tracking JX123456785GB); dispatch email sent.`,
        ].join('\n'),
      );
      expect(await statusOf(later.sessionId)).toBe('paid');
      expect(await h.emailsTo('customer4501@example.com')).toHaveLength(1);
      expect(await h.emailsTo('customer4502@example.com')).toHaveLength(0);
      // On purpose, from a script: --early goes with the request (C3's flag), and it is dispatched.
      const early = await h.orders(['mark-dispatched', later.reference, '--early', '--yes', '--local'], {
        confirm: 'as typed',
      });
      expect(early.code, early.err).toBe(0);
      expect(early.out).toBe(`${later.reference}: dispatched; dispatch email sent.`);
      expect(await statusOf(later.sessionId)).toBe('dispatched');
    } finally {
      h.setNow(undefined);
    }
  });
});

describe('orders CLI: the other commands that change things ask first too', () => {
  it('pause, resume, capacity --set, delay, address, revoke-link and tracking change nothing without --yes', async () => {
    h.setNow(new Date('2026-12-01T10:00:00Z'));
    const order = await h.orderPaidAt(new Date('2026-12-01T09:00:00Z'), 4601);
    try {
      const runs = [
        ['pause', '--message', 'Frozen ponds.'],
        ['resume'],
        ['capacity', '--set', '12', '--date', '2026-12-07'],
        ['delay', '--dispatch', '2026-12-07', '--to', '2026-12-08', '--reason', 'weather'],
        ['address', order.reference, '--postcode', 'BS2 0AA'],
        ['revoke-link', order.reference],
        ['tracking', order.reference, 'JX123456785GB'],
      ];
      for (const args of runs) {
        const run = await h.orders([...args, '--local'], { confirm: 'as typed', orderPage: true });
        expect(run.code, args.join(' ')).toBe(1);
        expect(run.err, args.join(' ')).toContain(NO_TERMINAL);
      }
      const status = await h.orders(['status', '--local']);
      expect(status.out).toContain('Shop: open (taking paid orders)');
      expect(status.out).toContain('Next dispatch: Monday 7 December 2026: 1 order, 3 bottles.');
      const [item] = await h.shop.ordersFor(order.sessionId);
      expect(item).toMatchObject({ status: 'paid', postcode: 'BS1 4DJ', dispatchDate: '2026-12-07' });
      expect(item?.history).toHaveLength(1);
      expect(await h.emailsTo('customer4601@example.com')).toHaveLength(0);
    } finally {
      h.setNow(undefined);
    }
  });

  it('--dry-run says what delay and capacity --set would do, by customer and day', async () => {
    h.setNow(new Date('2026-12-01T10:00:00Z'));
    const order = await h.orderPaidAt(new Date('2026-12-01T09:30:00Z'), 4701);
    try {
      const delay = await h.orders([
        'delay',
        '--dispatch',
        '2026-12-07',
        '--to',
        '2026-12-08',
        '--reason',
        'weather',
        '--dry-run',
        '--local',
      ]);
      const capacity = await h.orders([
        'capacity',
        '--set',
        '2',
        '--date',
        '2026-12-07',
        '--dry-run',
        '--local',
      ]);

      expect(delay.code).toBe(0);
      expect(delay.out).toContain(
        'from Monday 7 December 2026 to Tuesday 8 December 2026 (weather); each customer gets one email with the new day:',
      );
      expect(delay.out).toContain(`  ${order.reference}  Customer 4701 <customer4701@example.com>`);
      expect(delay.out).toContain('Dry run: nothing changed.');
      expect(capacity.code).toBe(0);
      expect(capacity.out).toBe(
        [
          'Monday 7 December 2026: at most 2 bottles (now no limit, the weekly default). No customer is emailed.',
          'Dry run: nothing changed.',
        ].join('\n'),
      );
      const [item] = await h.shop.ordersFor(order.sessionId);
      expect(item).toMatchObject({ status: 'paid', dispatchDate: '2026-12-07' });
    } finally {
      h.setNow(undefined);
    }
  });
});

describe('the confirm rule (ops/confirm.ts)', () => {
  /** A terminal (or not) whose answers are given; what is printed and asked is kept. */
  function fakeIo(isTerminal: boolean, answers: string[] = []) {
    const out: string[] = [];
    const asked: string[] = [];
    return {
      io: {
        out: (line: string) => out.push(line),
        isTerminal,
        ask: async (question: string) => {
          asked.push(question);
          return answers.shift() ?? '';
        },
      },
      out,
      asked,
    };
  }
  const plan = async () => ['Refund ABC (Ada <ada@example.com>) £3.25.'];

  it('--yes acts without building the plan; --dry-run wins over --yes', async () => {
    const { io, out } = fakeIo(false);
    let built = 0;
    const counted = async () => {
      built += 1;
      return plan();
    };
    expect(await confirmPlan(io, { yes: true }, counted)).toBe(true);
    expect(built).toBe(0);
    expect(await confirmPlan(io, { yes: true, 'dry-run': true }, counted)).toBe(false);
    expect(out).toEqual(['Refund ABC (Ada <ada@example.com>) £3.25.', 'Dry run: nothing changed.']);
  });

  it.each([
    ['y', true],
    ['Yes', true],
    [' y ', true],
    ['', false],
    ['n', false],
    ['yep', false],
  ])('at a terminal, %j acts: %s', async (answer, acts) => {
    const { io, asked } = fakeIo(true, [answer]);
    const asking = confirmPlan(io, {}, plan);
    if (acts) expect(await asking).toBe(true);
    else await expect(asking).rejects.toThrow(new NothingDoneError('Nothing done.'));
    expect(asked).toEqual(['Go ahead? [y/N] ']);
  });

  it('reads the day of an early-dispatch refusal, and nothing from another refusal', () => {
    expect(
      plannedDayOf('ABC123DEF456 is planned for Monday 14 December: dispatch it now only on purpose (early)'),
    ).toBe('Monday 14 December');
    expect(plannedDayOf('ABC123DEF456 was refunded on Tue 24 Nov, 00:10: it cannot be dispatched.')).toBe(
      undefined,
    );
  });

  it('asks once about orders planned for later, naming the day; --early needs no question; no terminal is a no', async () => {
    const refused = [
      {
        reference: 'AAA',
        refused: 'AAA is planned for Monday 14 December: dispatch it now only on purpose (early)',
      },
      {
        reference: 'BBB',
        refused: 'BBB is planned for Monday 14 December: dispatch it now only on purpose (early)',
      },
    ];
    const terminal = fakeIo(true, ['y']);
    expect(await confirmEarly(terminal.io, false, refused)).toBe(true);
    expect(terminal.asked).toEqual([
      '2 orders are planned for Monday 14 December: dispatch them now? [y/N] ',
    ]);

    const one = fakeIo(true, ['n']);
    expect(await confirmEarly(one.io, false, refused.slice(0, 1))).toBe(false);
    expect(one.asked).toEqual(['1 order is planned for Monday 14 December: dispatch it now? [y/N] ']);

    const twoDays = fakeIo(true, ['']);
    await confirmEarly(twoDays.io, false, [
      ...refused.slice(0, 1),
      {
        reference: 'CCC',
        refused: 'CCC is planned for Monday 21 December: dispatch it now only on purpose (early)',
      },
    ]);
    expect(twoDays.asked).toEqual([
      '2 orders are planned for later days (Monday 14 December, Monday 21 December): dispatch them now? [y/N] ',
    ]);

    const flag = fakeIo(false);
    expect(await confirmEarly(flag.io, true, refused)).toBe(true);
    expect(await confirmEarly(flag.io, false, refused)).toBe(false);
    expect(flag.asked).toEqual([]);
  });
});
