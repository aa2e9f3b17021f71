import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpsHarness, startOpsHarness } from './harness';

let h: OpsHarness;
beforeAll(async () => {
  h = await startOpsHarness();
});
afterAll(async () => {
  await h?.close();
});

function outDir(): string {
  return mkdtempSync(join(tmpdir(), 'dispatch-list-'));
}

describe('orders CLI: dispatch-list', () => {
  it('Christmas week 2026 (Monday 28 December is a bank holiday): the list is for Tuesday 29 December', async () => {
    // Paid Thursday 24 December 2026: the dispatch day of the next week is Tuesday 29th.
    const paidAt = new Date('2026-12-24T10:00:00Z');
    const first = await h.orderPaidAt(paidAt, 1, 3);
    const second = await h.orderPaidAt(new Date('2026-12-24T11:00:00Z'), 2, 9);
    expect(first.dispatchDate).toBe('2026-12-29');

    const dir = outDir();
    const byDate = await h.orders(['dispatch-list', '--date', '2026-12-28', '--out', dir, '--local']);
    expect(byDate.code).toBe(0);
    expect(byDate.out).toContain(
      'Monday 28 December is a weekend day or bank holiday: using the dispatch day Tuesday 29 December.',
    );
    expect(byDate.out).toContain('Dispatch Tuesday 29 December 2026: 2 orders, 12 bottles to prepare.');

    h.setNow(new Date('2026-12-27T18:00:00Z'));
    const next = await h.orders(['dispatch-list', '--out', dir, '--local']);
    h.setNow(undefined);
    expect(next.out).toContain('Dispatch Tuesday 29 December 2026: 2 orders, 12 bottles to prepare.');

    const csv = readFileSync(join(dir, 'dispatch-2026-12-29.csv'), 'utf8');
    expect(csv.split('\r\n')).toEqual([
      'name,address_line_1,address_line_2,address_line_3,postcode,phone,email,reference,bottles',
      `"Customer 1","1 Pond Lane","Bristol","","BS1 4DJ","07700 900123","customer1@example.com","${first.reference}","3"`,
      `"Customer 2","2 Pond Lane","Bristol","","BS1 4DJ","07700 900123","customer2@example.com","${second.reference}","9"`,
      '',
    ]);
    const html = readFileSync(join(dir, 'packing-slips-2026-12-29.html'), 'utf8');
    expect(html).toContain('<title>Packing slips: Tuesday 29 December</title>');
    expect(html).toContain('2 orders, 12 bottles to prepare.');
    expect(html).toContain('@media print');
    expect(html.match(/<section class="slip">/g)).toHaveLength(2);
    expect(html).toContain('LIVE ANIMALS');
  });

  it('Easter week 2027 (Monday 29 March is Easter Monday): next dispatch on that Monday is Tuesday 30 March', async () => {
    const order = await h.orderPaidAt(new Date('2027-03-25T09:00:00Z'), 3, 6);
    expect(order.dispatchDate).toBe('2027-03-30');
    h.setNow(new Date('2027-03-29T08:00:00Z'));
    const run = await h.orders(['dispatch-list', '--date', 'next', '--out', outDir(), '--local']);
    h.setNow(undefined);
    expect(run.code).toBe(0);
    expect(run.out).toContain('Dispatch Tuesday 30 March 2027: 1 order, 6 bottles to prepare.');
    expect(run.out).toContain(order.reference);
  });

  it('leaves out dispatched orders, escapes the slips, and defuses spreadsheet formulas in the CSV', async () => {
    const paidAt = new Date('2027-01-05T10:00:00Z');
    const hostile = await h.orderPaidAt(paidAt, 4, 3);
    const shipped = await h.orderPaidAt(paidAt, 5, 3);
    await h.shop.standIns.inspector.send(
      new UpdateCommand({
        TableName: h.shop.standIns.tableName,
        Key: { pk: hostile.pk },
        UpdateExpression: 'SET customerName = :name',
        ExpressionAttributeValues: { ':name': '=HYPERLINK("http://evil.test")<img src=x>' },
      }),
    );
    h.setNow(new Date('2027-01-09T10:00:00Z'));
    expect((await h.orders(['mark-dispatched', shipped.reference, '--local'])).code).toBe(0);
    const dir = outDir();
    const run = await h.orders(['dispatch-list', '--date', '2027-01-11', '--out', dir, '--local']);
    h.setNow(undefined);
    expect(run.out).toContain('Dispatch Monday 11 January 2027: 1 order, 3 bottles to prepare.');
    const csv = readFileSync(join(dir, 'dispatch-2027-01-11.csv'), 'utf8');
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.test"")<img src=x>"`);
    expect(csv).not.toContain(shipped.reference);
    const html = readFileSync(join(dir, 'packing-slips-2027-01-11.html'), 'utf8');
    expect(html).toContain('=HYPERLINK(&quot;http://evil.test&quot;)&lt;img src=x&gt;');
    expect(html).not.toContain('<img src=x>');
  });
});
