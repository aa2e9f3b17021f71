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
      'Monday 28 December is a bank holiday: using the dispatch day Tuesday 29 December.',
    );
    expect(byDate.out).toContain('Dispatch Tuesday 29 December 2026: 2 orders, 12 bottles to prepare.');

    h.setNow(new Date('2026-12-27T18:00:00Z'));
    const next = await h.orders(['dispatch-list', '--out', dir, '--local']);
    h.setNow(undefined);
    expect(next.out).toContain('Dispatch Tuesday 29 December 2026: 2 orders, 12 bottles to prepare.');

    const csv = readFileSync(join(dir, 'click-and-drop-2026-12-29.csv'), 'utf8');
    expect(csv.split('\r\n')).toEqual([
      'Full name,Address line 1,Address line 2,Address line 3,City,County,Postcode,Country,Email,Phone,Order reference,Special instructions,Weight (kg),Package size,Service code,Planned despatch date',
      `"Customer 1","1 Pond Lane","","","Bristol","","BS1 4DJ","United Kingdom","customer1@example.com","07700 900123","${first.reference}","URGENT – LIVING CREATURES – HANDLE WITH CARE","1.090","small parcel","","29/12/26"`,
      `"Customer 2","2 Pond Lane","","","Bristol","","BS1 4DJ","United Kingdom","customer2@example.com","07700 900123","${second.reference}","URGENT – LIVING CREATURES – HANDLE WITH CARE","2.770","medium parcel","","29/12/26"`,
      '',
    ]);
    const html = readFileSync(join(dir, 'packing-slips-2026-12-29.html'), 'utf8');
    expect(html).toContain('<title>Packing slips: Tuesday 29 December</title>');
    expect(html).toContain('2 orders, 12 bottles to prepare.');
    expect(html).toContain('@media print');
    expect(html.match(/<section class="slip">/g)).toHaveLength(2);
    expect(html).toContain('LIVE ANIMALS');
    expect(html.match(/URGENT – LIVING CREATURES – HANDLE WITH CARE/g)).toHaveLength(2);
    expect(byDate.out).toContain(
      'Post them Royal Mail 1st Class or faster: live animals may not go 2nd Class.',
    );
    expect(byDate.out).not.toContain('No town');
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
    const csv = readFileSync(join(dir, 'click-and-drop-2027-01-11.csv'), 'utf8');
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.test"")<img src=x>"`);
    expect(csv).not.toContain(shipped.reference);
    const html = readFileSync(join(dir, 'packing-slips-2027-01-11.html'), 'utf8');
    expect(html).toContain('=HYPERLINK(&quot;http://evil.test&quot;)&lt;img src=x&gt;');
    expect(html).not.toContain('<img src=x>');
  });

  it('writes into ./dispatch by default, names the orders without a town, and keeps a +44 phone as typed', async () => {
    // Paid Tuesday 2 February 2027: packed on Monday 8 February.
    const paidAt = new Date('2027-02-02T10:00:00Z');
    const threeLines = await h.orderPaidAt(paidAt, 6, 3);
    const oneLine = await h.orderPaidAt(paidAt, 7, 6);
    const setCustomer = (pk: string, address: string, phone: string) =>
      h.shop.standIns.inspector.send(
        new UpdateCommand({
          TableName: h.shop.standIns.tableName,
          Key: { pk },
          UpdateExpression: 'SET deliveryAddress = :address, customerPhone = :phone',
          ExpressionAttributeValues: { ':address': address, ':phone': phone },
        }),
      );
    await setCustomer(threeLines.pk, 'Flat 2\nRiverside House\n12 High St\nLeeds', '+44 7700 900123');
    await setCustomer(oneLine.pk, '7 Mill Lane', '07700 900456');
    const cwd = outDir();

    h.setNow(new Date('2027-02-05T10:00:00Z'));
    const run = await h.orders(['dispatch-list', '--date', '2027-02-08', '--local'], { cwd });
    h.setNow(undefined);

    expect(run.code).toBe(0);
    expect(run.out).toContain(`Click & Drop CSV: ${join(cwd, 'dispatch', 'click-and-drop-2027-02-08.csv')}`);
    expect(run.out).toContain(`Packing slips:    ${join(cwd, 'dispatch', 'packing-slips-2027-02-08.html')}`);
    expect(run.out).toContain(
      `No town in the address (Click & Drop needs City): fill it in before importing:\n  ${oneLine.reference}  7 Mill Lane  BS1 4DJ\n`,
    );
    expect(run.out).not.toContain(`${threeLines.reference}  Flat 2`);
    const rows = readFileSync(join(cwd, 'dispatch', 'click-and-drop-2027-02-08.csv'), 'utf8').split('\r\n');
    expect(rows).toContain(
      `"Customer 6","Flat 2","Riverside House","12 High St","Leeds","","BS1 4DJ","United Kingdom","customer6@example.com","+44 7700 900123","${threeLines.reference}","URGENT – LIVING CREATURES – HANDLE WITH CARE","1.090","small parcel","","08/02/27"`,
    );
    expect(rows).toContain(
      `"Customer 7","7 Mill Lane","","","","","BS1 4DJ","United Kingdom","customer7@example.com","07700 900456","${oneLine.reference}","URGENT – LIVING CREATURES – HANDLE WITH CARE","1.930","small parcel","","08/02/27"`,
    );
  });

  it('says nothing of towns or Royal Mail services on a day with no orders', async () => {
    const dir = outDir();
    const run = await h.orders(['dispatch-list', '--date', '2027-06-07', '--out', dir, '--local']);
    expect(run.out).toContain('Dispatch Monday 7 June 2027: 0 orders, 0 bottles to prepare.');
    expect(run.out).toContain(`Click & Drop CSV: ${join(dir, 'click-and-drop-2027-06-07.csv')}`);
    expect(run.out).not.toContain('1st Class');
    expect(run.out).not.toContain('No town');
  });
});
