import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillReferenceKeys } from '../../../../lambdas/domain/storage/reference-keys';
import { inputContaining } from '../../../support/aws-faults';
import { type StandIns, startStandIns } from '../../../support/stand-ins';

// The backfill against dynalite, on items as they were written before the fold: the index key the
// reference lower-cased.
let standIns: StandIns;
beforeAll(async () => {
  standIns = await startStandIns();
});
afterAll(() => standIns?.close());

const table = () => ({ client: standIns.inspector, tableName: standIns.tableName });
const put = (item: Record<string, unknown>) =>
  standIns.inspector.send(new PutCommand({ TableName: standIns.tableName, Item: item }));
const get = async (pk: string) =>
  (await standIns.inspector.send(new GetCommand({ TableName: standIns.tableName, Key: { pk } }))).Item;

describe('backfillReferenceKeys', () => {
  it('folds an order and a request written before the fold; one deleted meanwhile is neither counted nor written back', async () => {
    await put({
      pk: 'ORDER#cs_test_keys_KeepOrdeRl1O',
      reference: 'KeepOrdeRl1O',
      referenceKey: 'KeepOrdeRl1O'.toLowerCase(),
    });
    await put({ pk: 'REQUEST#RAB0I0000001', reference: 'RAB0I0000001', referenceKey: 'rab0i0000001' });
    await put({
      pk: 'ORDER#cs_test_keys_GoneOrderL1O',
      reference: 'GoneOrderL1O',
      referenceKey: 'goneorderl1o',
    });
    // Deleted by another process between the scan and its update.
    const name = 'delete-before-update';
    const gone = inputContaining('ORDER#cs_test_keys_GoneOrderL1O', ':folded');
    standIns.inspector.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'UpdateItemCommand' && gone(args.input)) {
          standIns.inspector.middlewareStack.remove(name);
          await standIns.inspector.send(
            new DeleteCommand({
              TableName: standIns.tableName,
              Key: { pk: 'ORDER#cs_test_keys_GoneOrderL1O' },
            }),
          );
        }
        return next(args);
      },
      { step: 'initialize', name },
    );

    expect(await backfillReferenceKeys(table())).toBe(2);

    expect(await get('ORDER#cs_test_keys_KeepOrdeRl1O')).toEqual({
      pk: 'ORDER#cs_test_keys_KeepOrdeRl1O',
      reference: 'KeepOrdeRl1O',
      referenceKey: 'keep0rder110',
    });
    expect(await get('REQUEST#RAB0I0000001')).toMatchObject({ referenceKey: 'rab010000001' });
    expect(await get('ORDER#cs_test_keys_GoneOrderL1O')).toBeUndefined();
    expect(await backfillReferenceKeys(table())).toBe(0);
  });
});
