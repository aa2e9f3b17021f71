import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UnreadableExportError } from '../../../../lambdas/domain/fulfilment/click-and-drop-export';
import { importClickAndDropTracking } from '../../../../lambdas/domain/operations/tracking-import';
import { RefusedError } from '../../../../lambdas/domain/refusal';
import { type OperationsHarness, type SeededOrder, startOperationsHarness } from './operations-harness';

// The Click & Drop import read whole before anything is sent, against dynalite and the SES
// stand-in, on an injected clock: Sunday 6 December 2026, 18:00 in London (GMT), after the weekly
// cut-off. The coming dispatch day is Monday 7 December; orders paid since go on the 14th.
const SUNDAY_EVENING = new Date('2026-12-06T18:00:00Z');
const OPERATOR = 'packer@live-aquatics.test';
const NOT_A_NUMBER =
  'A tracking number is the one on the label: like AB123456789GB (2 letters, 9 digits, 2 letters), or 8 to 30 letters and digits.';

let h: OperationsHarness;
beforeAll(async () => {
  h = await startOperationsHarness();
});
afterEach(() => h.setNow(undefined));
afterAll(() => h?.close());

/** A Click & Drop export: its heading on line 1, then one line per row. */
function csvOf(rows: ReadonlyArray<readonly [reference: string, trackingNumber: string]>): string {
  return [
    '"Order reference","Recipient name","Tracking number"',
    ...rows.map(([reference, tracking]) => `"${reference}","Someone","${tracking}"`),
    '',
  ].join('\r\n');
}

/** A paid order planned for `dispatchDate`, paid the Friday before Sunday 6 December. */
function seed(
  suffix: string,
  dispatchDate: string,
  email: string,
  more: Partial<SeededOrder> = {},
): ReturnType<OperationsHarness['seedOrder']> {
  return h.seedOrder({
    sessionId: `cs_test_import_${suffix}`,
    paidAt: '2026-12-04T09:00:00Z',
    dispatchDate,
    email,
    ...more,
  });
}

/** A dispatched order whose dispatch email went, with `trackingNumber`. */
async function dispatchedOrder(suffix: string, email: string, trackingNumber: string) {
  const order = await seed(suffix, '2026-12-07', email, { status: 'dispatched' });
  await h.setAttributes(order.pk, {
    trackingNumber,
    dispatchedAt: '2026-12-05T10:00:00.000Z',
    dispatchEmailState: 'sent',
  });
  return order;
}

const allEmails = async () => (await h.shop.standIns.emails()).length;

describe('the import preview', () => {
  it('lists what each row would do, and changes and sends nothing', async () => {
    h.setNow(SUNDAY_EVENING);
    const coming = await seed('PREVCOMING01', '2026-12-07', 'prev.coming@example.com', { name: 'Ann Pond' });
    const later = await seed('PREVLATER002', '2026-12-14', 'prev.later@example.com', { name: 'Ben Reed' });
    const same = await dispatchedOrder('PREVSAME0003', 'prev.same@example.com', 'AB111111111GB');
    const fixed = await dispatchedOrder('PREVFIXED004', 'prev.fixed@example.com', 'AB222222222GB');
    const refunded = await seed('PREVREFUND05', '2026-12-07', 'prev.refunded@example.com', {
      status: 'refunded',
    });
    const csv = csvOf([
      [coming.reference.toLowerCase(), 'ab 1234 5678 9gb'],
      [later.reference, 'CD987654321GB'],
      [same.reference, 'AB111111111GB'],
      [fixed.reference, 'AB222222220GB'],
      ['NOSUCHORDER9', 'JX111222333GB'],
      [coming.reference, 'AB123456789GB'],
      [refunded.reference, 'EF123456789GB'],
      ['', 'GH123456789GB'],
      [later.reference, ''],
      [later.reference, 'n/a'],
    ]);
    const before = await Promise.all([coming, later, same, fixed].map((order) => h.item(order.pk)));
    const sentBefore = await allEmails();

    const preview = await importClickAndDropTracking(csv, { actor: OPERATOR, preview: true }, h.deps);

    const pat = { customerName: 'Pat Pond' };
    expect(preview.rows).toEqual([
      {
        line: 2,
        reference: 'PREVCOMING01',
        trackingNumber: 'AB123456789GB',
        customerName: 'Ann Pond',
        customerEmail: 'prev.coming@example.com',
        action: 'dispatch',
      },
      {
        line: 3,
        reference: 'PREVLATER002',
        trackingNumber: 'CD987654321GB',
        customerName: 'Ben Reed',
        customerEmail: 'prev.later@example.com',
        action: 'refused',
        plannedFor: '2026-12-14',
        reason: 'PREVLATER002 is planned for Monday 14 December: dispatch it now only on purpose (early).',
      },
      {
        line: 4,
        reference: 'PREVSAME0003',
        trackingNumber: 'AB111111111GB',
        ...pat,
        customerEmail: 'prev.same@example.com',
        action: 'unchanged',
      },
      {
        line: 5,
        reference: 'PREVFIXED004',
        trackingNumber: 'AB222222220GB',
        ...pat,
        customerEmail: 'prev.fixed@example.com',
        action: 'trackingUpdate',
      },
      {
        line: 6,
        reference: 'NOSUCHORDER9',
        trackingNumber: 'JX111222333GB',
        action: 'refused',
        reason: 'No order or request with reference NOSUCHORDER9.',
      },
      {
        line: 7,
        reference: 'PREVCOMING01',
        trackingNumber: 'AB123456789GB',
        customerName: 'Ann Pond',
        customerEmail: 'prev.coming@example.com',
        action: 'unchanged',
        reason: 'The same number as line 2: one email.',
      },
      {
        line: 8,
        reference: 'PREVREFUND05',
        trackingNumber: 'EF123456789GB',
        ...pat,
        customerEmail: 'prev.refunded@example.com',
        action: 'refused',
        reason: 'PREVREFUND05 was refunded: it cannot be dispatched.',
      },
      {
        line: 9,
        reference: '',
        trackingNumber: 'GH123456789GB',
        action: 'refused',
        reason: 'No order reference on this row: not an order from this shop.',
      },
      {
        line: 10,
        reference: 'PREVLATER002',
        trackingNumber: '',
        action: 'refused',
        reason: 'No tracking number on this row yet.',
      },
      {
        line: 11,
        reference: 'PREVLATER002',
        trackingNumber: 'n/a',
        action: 'refused',
        reason: NOT_A_NUMBER,
      },
    ]);
    expect(preview.dispatched).toEqual([]);
    expect(preview.unmatched.map((row) => [row.line, row.reference, row.plannedFor])).toEqual([
      [3, 'PREVLATER002', '2026-12-14'],
      [6, 'NOSUCHORDER9', undefined],
      [8, 'PREVREFUND05', undefined],
      [9, '', undefined],
      [10, 'PREVLATER002', undefined],
      [11, 'PREVLATER002', undefined],
    ]);
    expect(await allEmails()).toBe(sentBefore);
    expect(await Promise.all([coming, later, same, fixed].map((order) => h.item(order.pk)))).toEqual(before);
  });

  it('with early, an order planned for Monday 14 December would be dispatched, its day named', async () => {
    h.setNow(SUNDAY_EVENING);
    const later = await seed('PREVEARLY006', '2026-12-14', 'prev.early@example.com');

    const preview = await importClickAndDropTracking(
      csvOf([[later.reference, 'CD987654321GB']]),
      { actor: OPERATOR, preview: true, early: true },
      h.deps,
    );

    expect(preview).toEqual({
      dispatched: [],
      unmatched: [],
      rows: [
        {
          line: 2,
          reference: 'PREVEARLY006',
          trackingNumber: 'CD987654321GB',
          customerName: 'Pat Pond',
          customerEmail: 'prev.early@example.com',
          action: 'dispatch',
          plannedFor: '2026-12-14',
        },
      ],
    });
    expect(await h.item(later.pk)).toMatchObject({ status: 'paid' });
    expect(await h.emailsTo('prev.early@example.com')).toEqual([]);
  });

  it('names no planned day for an order of Monday 14 December dispatched already, or refunded', async () => {
    h.setNow(SUNDAY_EVENING);
    const dispatched = await seed('PREVGONE0008', '2026-12-14', 'prev.gone@example.com', {
      status: 'dispatched',
    });
    await h.setAttributes(dispatched.pk, { trackingNumber: 'AB444444444GB', dispatchEmailState: 'sent' });
    const refunded = await seed('PREVREFUND09', '2026-12-14', 'prev.refund14@example.com', {
      status: 'refunded',
    });

    const preview = await importClickAndDropTracking(
      csvOf([
        [dispatched.reference, 'AB444444444GB'],
        [refunded.reference, 'AB555555555GB'],
      ]),
      { actor: OPERATOR, preview: true },
      h.deps,
    );

    expect(preview.rows?.map((row) => [row.action, row.plannedFor, row.reason])).toEqual([
      ['unchanged', undefined, undefined],
      ['refused', undefined, 'PREVREFUND09 was refunded: it cannot be dispatched.'],
    ]);
  });

  it("says a dispatched order's dispatch email still due goes with the file's number", async () => {
    h.setNow(SUNDAY_EVENING);
    const order = await dispatchedOrder('PREVPENDING7', 'prev.pending@example.com', 'AB333333333GB');
    await h.setAttributes(order.pk, { dispatchEmailState: 'pending' });

    const preview = await importClickAndDropTracking(
      csvOf([[order.reference, 'AB333333333GB']]),
      { actor: OPERATOR, preview: true },
      h.deps,
    );

    expect(preview.rows?.map((row) => row.action)).toEqual(['dispatch']);
  });
});

describe('the import on the right day', () => {
  it('dispatches the coming Monday, lists Monday 14 December with its day; with early it goes, the email saying Sunday 6 December', async () => {
    h.setNow(SUNDAY_EVENING);
    const coming = await seed('DAYCOMING001', '2026-12-07', 'day.coming@example.com');
    const later = await seed('DAYLATER0002', '2026-12-14', 'day.later@example.com');
    const csv = csvOf([
      [coming.reference, 'AB123456789GB'],
      [later.reference, 'CD987654321GB'],
    ]);

    const first = await importClickAndDropTracking(csv, { actor: OPERATOR }, h.deps);

    expect(first.dispatched.map((r) => [r.reference, r.changed, r.email])).toEqual([
      ['DAYCOMING001', true, 'sent'],
    ]);
    expect(first.unmatched).toEqual([
      {
        line: 3,
        reference: 'DAYLATER0002',
        trackingNumber: 'CD987654321GB',
        reason: 'DAYLATER0002 is planned for Monday 14 December: dispatch it now only on purpose (early).',
        plannedFor: '2026-12-14',
      },
    ]);
    expect(first.rows).toBeUndefined();
    expect(await h.item(later.pk)).toMatchObject({ status: 'paid' });
    expect(await h.emailsTo('day.later@example.com')).toEqual([]);

    const early = await importClickAndDropTracking(csv, { actor: OPERATOR, early: true }, h.deps);

    expect(early.dispatched.map((r) => [r.reference, r.changed, r.email])).toEqual([
      ['DAYCOMING001', false, 'not-sent'],
      ['DAYLATER0002', true, 'sent'],
    ]);
    expect(early.unmatched).toEqual([]);
    const [email, ...more] = await h.emailsTo('day.later@example.com');
    expect(more).toEqual([]);
    expect(email?.body.text).toContain('Dispatched: Sunday 6 December\n');
    expect(email?.body.text).toContain('CD987654321GB');
    expect(await h.emailsTo('day.coming@example.com')).toHaveLength(1);
  });

  it('lists every row of an order a delay moved to a later week after the file was read', async () => {
    h.setNow(SUNDAY_EVENING);
    const order = await seed('DAYRACE00003', '2026-12-07', 'day.race@example.com');
    h.beforeCommand('UpdateItemCommand', dispatchOf(order.pk), () =>
      h.setAttributes(order.pk, { dispatchDate: '2026-12-14' }),
    );

    const result = await importClickAndDropTracking(
      csvOf([
        [order.reference, 'AB123456789GB'],
        [order.reference, 'AB 123456789 GB'],
      ]),
      { actor: OPERATOR },
      h.deps,
    );

    const reason = 'DAYRACE00003 is planned for Monday 14 December: dispatch it now only on purpose (early).';
    expect(result).toEqual({
      dispatched: [],
      unmatched: [
        {
          line: 2,
          reference: 'DAYRACE00003',
          trackingNumber: 'AB123456789GB',
          reason,
          plannedFor: '2026-12-14',
        },
        {
          line: 3,
          reference: 'DAYRACE00003',
          trackingNumber: 'AB 123456789 GB',
          reason,
          plannedFor: '2026-12-14',
        },
      ],
    });
    expect(await h.emailsTo('day.race@example.com')).toEqual([]);
  });

  it('lists an order refunded after the file was read, without a day', async () => {
    h.setNow(SUNDAY_EVENING);
    const order = await seed('DAYREFUND004', '2026-12-07', 'day.refund@example.com');
    h.beforeCommand('UpdateItemCommand', dispatchOf(order.pk), () =>
      h.setAttributes(order.pk, { status: 'refunded' }),
    );

    const result = await importClickAndDropTracking(
      csvOf([[order.reference, 'AB123456789GB']]),
      { actor: OPERATOR },
      h.deps,
    );

    expect(result.unmatched).toEqual([
      {
        line: 2,
        reference: 'DAYREFUND004',
        trackingNumber: 'AB123456789GB',
        reason: 'DAYREFUND004 was refunded meanwhile: it cannot be dispatched.',
      },
    ]);
  });
});

describe('one order, two numbers in one file', () => {
  it('refuses that order, both rows listed, before anything is sent; the other orders go on', async () => {
    h.setNow(SUNDAY_EVENING);
    const twice = await seed('TWONUMBERS01', '2026-12-07', 'two.numbers@example.com');
    const other = await seed('TWOOTHER0002', '2026-12-07', 'two.other@example.com');
    const csv = csvOf([
      [twice.reference, 'AB123456789GB'],
      [other.reference, 'EF123456789GB'],
      ['NOSUCHORDER9', 'JX111222333GB'],
      [twice.reference.toLowerCase(), 'cd 987654321 gb'],
    ]);
    const reason =
      'Two tracking numbers for TWONUMBERS01 in this file (AB123456789GB on line 2, CD987654321GB on line 5): fix the file and import again.';

    const preview = await importClickAndDropTracking(csv, { actor: OPERATOR, preview: true }, h.deps);
    const imported = await importClickAndDropTracking(csv, { actor: OPERATOR }, h.deps);

    expect(preview.rows?.filter((row) => row.reference === 'TWONUMBERS01')).toEqual([
      {
        line: 2,
        reference: 'TWONUMBERS01',
        trackingNumber: 'AB123456789GB',
        customerName: 'Pat Pond',
        customerEmail: 'two.numbers@example.com',
        action: 'refused',
        reason,
      },
      {
        line: 5,
        reference: 'TWONUMBERS01',
        trackingNumber: 'cd 987654321 gb',
        customerName: 'Pat Pond',
        customerEmail: 'two.numbers@example.com',
        action: 'refused',
        reason,
      },
    ]);
    expect(imported.dispatched.map((r) => r.reference)).toEqual(['TWOOTHER0002']);
    expect(imported.unmatched).toEqual([
      { line: 2, reference: 'TWONUMBERS01', trackingNumber: 'AB123456789GB', reason },
      {
        line: 4,
        reference: 'NOSUCHORDER9',
        trackingNumber: 'JX111222333GB',
        reason: 'No order or request with reference NOSUCHORDER9.',
      },
      { line: 5, reference: 'TWONUMBERS01', trackingNumber: 'cd 987654321 gb', reason },
    ]);
    expect(await h.item(twice.pk)).toMatchObject({ status: 'paid' });
    expect(await h.item(twice.pk)).not.toHaveProperty('trackingNumber');
    expect(await h.emailsTo('two.numbers@example.com')).toEqual([]);
    expect(await h.emailsTo('two.other@example.com')).toHaveLength(1);
  });

  it('counts three different numbers as 3', async () => {
    h.setNow(SUNDAY_EVENING);
    const order = await seed('THREENUMB001', '2026-12-07', 'three.numbers@example.com');

    const result = await importClickAndDropTracking(
      csvOf([
        [order.reference, 'AB123456789GB'],
        [order.reference, 'CD123456789GB'],
        [order.reference, 'AB123456789GB'],
        [order.reference, 'EF123456789GB'],
      ]),
      { actor: OPERATOR },
      h.deps,
    );

    expect(result.unmatched.map((row) => row.reason)).toEqual(
      Array(4).fill(
        '3 tracking numbers for THREENUMB001 in this file (AB123456789GB on line 2, CD123456789GB on line 3, AB123456789GB on line 4, EF123456789GB on line 5): fix the file and import again.',
      ),
    );
    expect(await h.emailsTo('three.numbers@example.com')).toEqual([]);
  });

  it('takes the same number twice (spaced differently) as one action: one dispatch, one email', async () => {
    h.setNow(SUNDAY_EVENING);
    const order = await seed('SAMETWICE001', '2026-12-07', 'same.twice@example.com');

    const result = await importClickAndDropTracking(
      csvOf([
        [order.reference, 'AB 1234 5678 9GB'],
        [order.reference.toLowerCase(), 'ab123456789gb'],
      ]),
      { actor: OPERATOR },
      h.deps,
    );

    expect(result.dispatched.map((r) => [r.reference, r.changed, r.email, r.order.trackingNumber])).toEqual([
      ['SAMETWICE001', true, 'sent', 'AB123456789GB'],
    ]);
    expect(result.unmatched).toEqual([]);
    expect(await h.emailsTo('same.twice@example.com')).toHaveLength(1);
  });
});

describe('the import: files and failures', () => {
  it('refuses a file that is not a Click & Drop export with tracking numbers', async () => {
    const refusal = importClickAndDropTracking(
      'Name,Email\r\nPat,pat@example.com\r\n',
      { actor: OPERATOR },
      h.deps,
    );

    await expect(refusal).rejects.toThrow(RefusedError);
    await expect(refusal).rejects.toHaveProperty('cause', expect.any(UnreadableExportError));
    await expect(refusal).rejects.toThrow(
      'This is not a Click & Drop export with tracking numbers: it needs an "Order reference" and a "Tracking number" column (it has "Name", "Email").',
    );
  });

  it('passes on a failure of the store while reading the orders, having sent nothing', async () => {
    h.setNow(SUNDAY_EVENING);
    const order = await seed('FAILREAD0001', '2026-12-07', 'fail.read@example.com');
    h.beforeCommand(
      'QueryCommand',
      (input) => JSON.stringify(input).includes('failread0001'),
      () => Promise.reject(new Error('The store is down')),
    );

    await expect(
      importClickAndDropTracking(csvOf([[order.reference, 'AB123456789GB']]), { actor: OPERATOR }, h.deps),
    ).rejects.toThrow('The store is down');
    expect(await h.emailsTo('fail.read@example.com')).toEqual([]);
  });

  it('passes on a failure of the store while dispatching', async () => {
    h.setNow(SUNDAY_EVENING);
    const order = await seed('FAILWRITE001', '2026-12-07', 'fail.write@example.com');
    h.beforeCommand('UpdateItemCommand', dispatchOf(order.pk), () =>
      Promise.reject(new Error('The store is down')),
    );

    await expect(
      importClickAndDropTracking(csvOf([[order.reference, 'AB123456789GB']]), { actor: OPERATOR }, h.deps),
    ).rejects.toThrow('The store is down');
  });
});

/** The conditional update that dispatches the order `pk`. */
function dispatchOf(pk: string) {
  return (input: unknown) => {
    const text = JSON.stringify(input);
    return text.includes(pk) && text.includes(':dispatched');
  };
}
