import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpsHarness, startOpsHarness } from './harness';

let h: OpsHarness;
beforeAll(async () => {
  h = await startOpsHarness();
});
afterAll(async () => {
  await h?.close();
});

const COMMANDS = [
  'list',
  'dispatch-list',
  'mark-dispatched',
  'delay',
  'refund',
  'pause',
  'resume',
  'status',
  'request-payment',
  'decline',
];

describe('orders CLI: usage', () => {
  it.each(COMMANDS)('%s --help prints its usage and exits 0', async (command) => {
    const run = await h.orders([command, '--help']);
    expect(run.code).toBe(0);
    expect(run.out).toContain(`npm run orders -- ${command}`);
    expect(run.out).toContain('--local');
  });

  it('refuses a command with nowhere to act, saying how to say where, with exit code 2', async () => {
    const run = await h.orders(['list']);
    expect(run.code).toBe(2);
    expect(run.err).toBe(
      [
        'Say where: --local, --stage NAME, or set ORDERS_STAGE (the first --local or --stage is then remembered in .orders-target.json).',
        'Usage: npm run orders -- list [--status S] [--dispatch next|YYYY-MM-DD] [--weeks N] [--json] [--local | --stage NAME]',
        '(`npm run orders -- list --help` says more.)',
      ].join('\n'),
    );
    const both = await h.orders(['status', '--local', '--stage', 'dev']);
    expect(both.code).toBe(2);
    expect(both.err).toContain('status: say where once: --local or --stage NAME, not both');
  });

  it('refuses an unknown command, suggesting the one meant', async () => {
    const run = await h.orders(['refnd', 'ABC', '--local']);
    expect(run.code).toBe(2);
    expect(run.err).toContain('Unknown command "refnd" (did you mean refund?).');
    expect((await h.orders(['ship', '--local'])).err).toContain('Unknown command "ship".');
  });
});

describe("orders CLI: mistyped flags and values, in the command's words with its usage", () => {
  const DELAY_USAGE = [
    'Usage: npm run orders -- delay --dispatch next|YYYY-MM-DD --to YYYY-MM-DD --reason weather|supply|other [--dry-run | --yes] [--local | --stage NAME]',
    '(`npm run orders -- delay --help` says more.)',
  ].join('\n');

  it.each([
    [
      'a mistyped flag, with the flag meant',
      ['delay', '--dispach', '2026-11-30', '--to', '2026-12-01', '--reason', 'weather', '--local'],
      'delay: unknown flag --dispach (did you mean --dispatch?)',
    ],
    [
      'a flag the command does not have',
      ['delay', '--dispatch', '2026-11-30', '--colour', 'red', '--local'],
      'delay: unknown flag --colour',
    ],
    [
      'a value missing at the end',
      ['delay', '--dispatch', '2026-11-30', '--local', '--to'],
      'delay: --to needs a value',
    ],
    [
      'a value missing before the next flag',
      ['delay', '--dispatch', '2026-11-30', '--to', '--reason', 'weather', '--local'],
      'delay: --to needs a value',
    ],
    ['a value given to a switch', ['delay', '--local=yes'], 'delay: --local takes no value'],
    [
      'a reference to a command that takes none',
      ['delay', 'R7gTnyJUONdT', '--local'],
      'delay: unexpected "R7gTnyJUONdT": this command takes no reference',
    ],
  ])('%s exits 2', async (_case, args, first) => {
    const run = await h.orders(args);
    expect(run.code).toBe(2);
    expect(run.err).toBe(`${first}\n${DELAY_USAGE}`);
    expect(run.out).toBe('');
  });

  it("reads each command's options off its usage line: a VALUE after a flag takes one, a bare flag takes none", async () => {
    const set = await h.orders(['capacity', '--local', '--set']);
    expect(set.code).toBe(2);
    expect(set.err.split('\n')[0]).toBe('capacity: --set needs a value');
    const delivery = await h.orders(['refund', 'AAAAAAAAAAAA', '--delivery=yes', '--local']);
    expect(delivery.code).toBe(2);
    expect(delivery.err.split('\n')[0]).toBe('refund: --delivery takes no value');
    const json = await h.orders(['weather', '--jsn', '--local']);
    expect(json.err.split('\n')[0]).toBe('weather: unknown flag --jsn (did you mean --json?)');
  });

  it('asks for the reference a command needs, and for one only where one is meant', async () => {
    const none = await h.orders(['refund', '--local']);
    expect(none.code).toBe(2);
    expect(none.err).toBe(
      [
        'refund: give the order reference',
        'Usage: npm run orders -- refund <reference> --reason supply|doa|other [--bottles N] [--delivery] [--again] [--dry-run | --yes] [--local | --stage NAME]',
        '(`npm run orders -- refund --help` says more.)',
      ].join('\n'),
    );
    const two = await h.orders(['decline', 'AAAAAAAAAAAA', 'BBBBBBBBBBBB', '--local']);
    expect(two.code).toBe(2);
    expect(two.err).toContain('decline: give one order reference, not 2 (AAAAAAAAAAAA BBBBBBBBBBBB)');
    const many = await h.orders(['mark-dispatched', '--local']);
    expect(many.code).toBe(2);
    expect(many.err).toContain('mark-dispatched: give at least one order reference');
  });

  it("says a value the command cannot use in the command's words, with its usage", async () => {
    const run = await h.orders(['list', '--weeks', 'many', '--local']);
    expect(run.code).toBe(2);
    expect(run.err).toContain('list: Weeks is a whole number from 0 to 104.\nUsage: npm run orders -- list ');
  });
});

describe('orders CLI: list, mark-dispatched', () => {
  it('lists orders newest first with reference, name, postcode, bottles, total, dispatch, status and emails', async () => {
    const older = await h.paidOrder({ quantity: 3, customer: { name: 'Ada Older' } });
    const newer = await h.paidOrder({ quantity: 6, customer: { name: 'Bea Newer' } });
    const run = await h.orders(['list', '--local']);
    expect(run.code).toBe(0);
    const lines = run.out.split('\n');
    expect(lines[0]).toMatch(
      /^REFERENCE\s+PAID\s+NAME\s+POSTCODE\s+BOTTLES\s+TOTAL\s+DISPATCH\s+STATUS\s+EMAILS$/,
    );
    const newerLine = lines.findIndex((l) => l.startsWith(newer.reference));
    const olderLine = lines.findIndex((l) => l.startsWith(older.reference));
    expect(newerLine).toBeGreaterThan(0);
    expect(olderLine).toBeGreaterThan(newerLine);
    expect(lines[newerLine]).toContain('Bea Newer');
    expect(lines[newerLine]).toContain('SW1A 2AA');
    expect(lines[newerLine]).toContain('£24.45');
    expect(lines[newerLine]).toContain('paid');
    expect(lines[newerLine]).toContain('confirmation notice');

    const json = await h.orders(['list', '--local', '--json', '--status', 'paid']);
    const rows: Array<{ reference: string; bottles: number; totalPence: number }> = JSON.parse(json.out);
    expect(rows.find((r) => r.reference === older.reference)).toMatchObject({ bottles: 3, totalPence: 1470 });
  });

  it('marks an order dispatched once: one dispatch email with the tracking number; a second run sends nothing', async () => {
    const order = await h.paidOrder({ customer: { email: 'dispatch.once@example.com' } });
    const first = await h.orders([
      'mark-dispatched',
      order.reference,
      '--tracking',
      'ab 123 456 789 gb',
      '--local',
    ]);
    expect(first.code).toBe(0);
    expect(first.out).toContain(
      `${order.reference}: dispatched (tracking AB123456789GB); dispatch email sent.`,
    );
    const second = await h.orders(['mark-dispatched', order.reference, '--local']);
    expect(second.code).toBe(0);
    expect(second.out).toContain('already dispatched');
    expect(second.out).toContain('nothing sent again');

    const dispatchEmails = (await h.emailsTo('dispatch.once@example.com')).filter((e) =>
      e.subject.includes('on its way'),
    );
    expect(dispatchEmails).toHaveLength(1);
    const [email] = dispatchEmails;
    expect(email?.subject).toBe(`Live Aquatics Ltd: your order ${order.reference} is on its way`);
    expect(email?.body.text).toContain('Tracking number: AB123456789GB');
    expect(email?.body.text).toContain('This parcel holds live animals');
    expect(email?.body.text).toContain('Please open it as soon as it arrives');
    expect(email?.body.text).toContain('Seller: Live Aquatics Ltd');
    expect(email?.body.html).toContain('Hello Zoë Brontë,');

    const listed = await h.orders(['list', '--local', '--status', 'dispatched']);
    expect(listed.out).toContain(order.reference);
    expect(listed.out).toContain('dispatch');
  });

  it('with email down, says the orders were marked dispatched and which emails were not sent, not that the stack is down; a rerun sends them', async () => {
    const first = await h.paidOrder({ customer: { email: 'ses.down.1@example.com' } });
    const second = await h.paidOrder({ customer: { email: 'ses.down.2@example.com' } });
    const run = await h.orders(['mark-dispatched', first.reference, second.reference, '--local'], {
      emailDown: true,
    });

    expect(run.code).toBe(1);
    expect(run.out.split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${first.reference}: dispatched; dispatch email NOT sent \\(the admin API could not send it\\)\\.$`,
        ),
      ),
      expect.stringMatching(new RegExp(`^${second.reference}: dispatched; dispatch email NOT sent \\(`)),
    ]);
    expect(run.err).toContain(
      `Marked dispatched, but the dispatch email could not be sent for ${first.reference} ${second.reference} (`,
    );
    expect(run.err).toContain(
      `run mark-dispatched ${first.reference} ${second.reference} again once email works (each email is sent once).`,
    );
    expect(run.err).not.toContain('local stack is not running');
    expect((await h.shop.ordersFor(first.sessionId))[0]).toMatchObject({
      status: 'dispatched',
      dispatchEmailState: 'pending',
    });

    const rerun = await h.orders(['mark-dispatched', first.reference, second.reference, '--local']);
    expect(rerun.code).toBe(0);
    expect(rerun.out).toContain(`${first.reference}: already dispatched`);
    expect(rerun.out).toContain('its dispatch email, not sent before, sent now');
    for (const to of ['ses.down.1@example.com', 'ses.down.2@example.com']) {
      expect((await h.emailsTo(to)).filter((e) => e.subject.includes('on its way'))).toHaveLength(1);
    }
  });

  it('refuses an unknown reference and a malformed one, and changes nothing', async () => {
    const unknown = await h.orders(['mark-dispatched', 'ZZZZZZZZZZZZ', '--local']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('No order or request with reference ZZZZZZZZZZZZ.');
    const malformed = await h.orders(['refund', '<script>', '--reason', 'other', '--local']);
    // The admin API's schema refuses it: a typing mistake, with the command's usage.
    expect(malformed.code).toBe(2);
    expect(malformed.err).toContain('refund: A reference is 6 to 200 letters, digits or "_".\nUsage:');
  });

  it('dispatches two orders each with its number, imports a Click & Drop export, and refunds 2 bottles', async () => {
    const a = await h.paidOrder({ quantity: 6, customer: { email: 'cli.bulk.a@example.com' } });
    const b = await h.paidOrder({ customer: { email: 'cli.bulk.b@example.com' } });
    const c = await h.paidOrder({ customer: { email: 'cli.bulk.c@example.com' } });
    const bulk = await h.orders([
      'mark-dispatched',
      `${a.reference}=AB123456789GB`,
      `${b.reference}=CD987654321GB`,
      '--local',
    ]);
    expect(bulk.out).toContain(`${a.reference}: dispatched (tracking AB123456789GB); dispatch email sent.`);
    expect(bulk.out).toContain(`${b.reference}: dispatched (tracking CD987654321GB); dispatch email sent.`);
    const file = join(mkdtempSync(join(tmpdir(), 'cnd-')), 'export.csv');
    writeFileSync(
      file,
      `\uFEFF"Order reference","Tracking number"\r\n"${c.reference}","JX123456789GB"\r\n"NOSUCHREF123","JX123456780GB"\r\n`,
    );
    const imported = await h.orders(['tracking', 'import', file, '--local']);
    expect(imported.out).toContain(`${c.reference}: dispatched (tracking JX123456789GB); email sent.`);
    expect(imported.out).toContain(
      'Line 3 not matched (NOSUCHREF123 JX123456780GB): No order or request with reference NOSUCHREF123.',
    );
    expect(imported.out).toContain('1 matched, 1 not matched.');
    const part = await h.orders(['refund', a.reference, '--bottles', '2', '--reason', 'doa', '--local']);
    expect(part.code).toBe(0);
    expect(part.out).toContain(`${a.reference}: refunded £6.50 (Stripe refund re_`);
    expect(part.out).toContain('£6.50 of £24.45 refunded in all; refund email sent.');
    const listed = await h.orders(['list', '--local', '--status', 'dispatched']);
    expect(listed.out.split('\n').find((line) => line.startsWith(a.reference))).toContain(
      'dispatched (refunded in part)',
    );
  });

  it('refuses --tracking with several references', async () => {
    const run = await h.orders([
      'mark-dispatched',
      'AAAAAAAAAAAA',
      'BBBBBBBBBBBB',
      '--tracking',
      'T1234',
      '--local',
    ]);
    expect(run.code).toBe(2);
    expect(run.err).toContain('--tracking goes with one reference at a time.');
  });
});

describe('orders CLI: delay', () => {
  it("moves a day's undispatched orders, emails each customer once with the new date, and a rerun sends nothing", async () => {
    // Paid on Tuesday 5 January 2027: dispatch Monday 11 January, a week no other test's real-clock
    // order reaches.
    const paidAt = new Date('2027-01-05T10:00:00Z');
    const a = await h.orderPaidAt(paidAt, 101);
    const b = await h.orderPaidAt(paidAt, 102, 9);
    const shipped = await h.orderPaidAt(paidAt, 103);
    expect(a.dispatchDate).toBe('2027-01-11');
    h.setNow(new Date('2027-01-09T09:00:00Z'));
    expect((await h.orders(['mark-dispatched', shipped.reference, '--local'])).code).toBe(0);

    const run = await h.orders([
      'delay',
      '--dispatch',
      '2027-01-11',
      '--to',
      '2027-01-12',
      '--reason',
      'weather',
      '--local',
    ]);
    expect(run.code).toBe(0);
    expect(run.out).toContain(
      'Moved 2 orders from Monday 11 January 2027 to Tuesday 12 January 2027 (weather)',
    );
    expect(run.out).toContain('Delay emails sent: 2');

    const again = await h.orders([
      'delay',
      '--dispatch',
      '2027-01-11',
      '--to',
      '2027-01-12',
      '--reason',
      'weather',
      '--local',
    ]);
    expect(again.out).toContain('Moved 0 orders');
    expect(again.out).toContain('Delay emails sent: 0.');

    for (const order of [a, b]) {
      const emails = (await h.emailsTo(order.customerEmail)).filter((e) =>
        e.subject.includes('new dispatch date'),
      );
      expect(emails).toHaveLength(1);
      expect(emails[0]?.body.text).toContain(
        'from Monday 11 January to Tuesday 12 January, because of freezing or extreme weather',
      );
    }
    expect(
      (await h.emailsTo(shipped.customerEmail)).filter((e) => e.subject.includes('new dispatch date')),
    ).toHaveLength(0);
    const listed = await h.orders(['list', '--local', '--dispatch', '2027-01-12', '--json']);
    expect(JSON.parse(listed.out)).toHaveLength(2);
    h.setNow(undefined);
  });

  it('refuses a new date at a weekend or not after the old one', async () => {
    h.setNow(new Date('2026-11-25T10:00:00Z'));
    const weekend = await h.orders([
      'delay',
      '--dispatch',
      '2026-12-07',
      '--to',
      '2026-12-12',
      '--reason',
      'supply',
      '--local',
    ]);
    expect(weekend.code).toBe(1);
    expect(weekend.err).toContain('Saturday 12 December is a weekend day: couriers collect');
    const backwards = await h.orders([
      'delay',
      '--dispatch',
      '2026-12-07',
      '--to',
      '2026-12-07',
      '--reason',
      'other',
      '--local',
    ]);
    expect(backwards.err).toContain('The new date, Monday 7 December, must be after Monday 7 December.');
    const reason = await h.orders([
      'delay',
      '--dispatch',
      '2026-12-07',
      '--to',
      '2026-12-08',
      '--reason',
      'snow',
      '--local',
    ]);
    expect(reason.code).toBe(2);
    expect(reason.err).toContain('--reason must be one of: weather, supply, other.');
    h.setNow(undefined);
  });
});

describe("orders CLI: times as London's clock read them", () => {
  it('says when an order was dispatched in London wording, in BST just after midnight', async () => {
    const order = await h.orderPaidAt(new Date('2026-06-29T10:00:00Z'), 201);
    h.setNow(new Date('2026-06-30T23:30:00Z'));
    expect((await h.orders(['mark-dispatched', order.reference, '--local'])).code).toBe(0);
    h.setNow(new Date('2026-11-25T13:15:00Z'));
    const again = await h.orders(['mark-dispatched', order.reference, '--local']);
    expect(again.out).toBe(`${order.reference}: already dispatched on Wed 1 Jul, 00:30; nothing sent again.`);
    h.setNow(new Date('2027-01-04T09:00:00Z'));
    const nextYear = await h.orders(['mark-dispatched', order.reference, '--local']);
    expect(nextYear.out).toContain('already dispatched on Wed 1 Jul 2026, 00:30;');
    h.setNow(undefined);
  });

  it('says when an order was refunded in London wording, refusing a second refund and its dispatch', async () => {
    const order = await h.paidOrder({ customer: { email: 'refunded.when@example.com' } });
    h.setNow(new Date('2026-11-24T00:10:00Z'));
    expect((await h.orders(['refund', order.reference, '--reason', 'other', '--local'])).code).toBe(0);
    h.setNow(new Date('2026-11-25T13:15:00Z'));
    const again = await h.orders(['refund', order.reference, '--reason', 'other', '--local']);
    expect(again.code).toBe(1);
    expect(again.err).toContain(`Refused: ${order.reference} was already refunded on Tue 24 Nov, 00:10 (re_`);
    const dispatch = await h.orders(['mark-dispatched', order.reference, '--local']);
    expect(dispatch.err).toContain(
      `${order.reference}: ${order.reference} was refunded on Tue 24 Nov, 00:10: it cannot be dispatched.`,
    );
    h.setNow(undefined);
  });

  it('says since when the shop has been open, in GMT', async () => {
    // Paused first: a resume of a shop already open (a delay's capacity write made its settings
    // item) keeps its time, which is not known.
    h.setNow(new Date('2026-11-23T08:00:00Z'));
    expect((await h.orders(['pause', '--message', 'Back at 08:05', '--local'])).code).toBe(0);
    h.setNow(new Date('2026-11-23T08:05:00Z'));
    expect((await h.orders(['resume', '--local'])).code).toBe(0);
    h.setNow(new Date('2026-11-25T13:15:00Z'));
    const run = await h.orders(['status', '--local']);
    expect(run.out).toContain('(since Mon 23 Nov, 08:05).');
    h.setNow(undefined);
  });
});
