import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StandIns, startStandIns } from '../support/stand-ins';

// The stand-in's TransactWriteItems (dynalite has none): all or nothing, as DynamoDB's.

let standIns: StandIns;
beforeAll(async () => {
  standIns = await startStandIns();
});
afterAll(() => standIns?.close());

const read = async (pk: string) =>
  (
    await standIns.inspector.send(
      new GetCommand({ TableName: standIns.tableName, Key: { pk }, ConsistentRead: true }),
    )
  ).Item;

describe('TransactWriteItems on the dynalite stand-in', () => {
  it('writes every action when every condition holds, and a condition check writes nothing', async () => {
    await standIns.inspector.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            ConditionCheck: {
              TableName: standIns.tableName,
              Key: { pk: 'T#gate' },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Update: {
              TableName: standIns.tableName,
              Key: { pk: 'T#a' },
              UpdateExpression: 'ADD n :one',
              ExpressionAttributeValues: { ':one': 1 },
            },
          },
          { Put: { TableName: standIns.tableName, Item: { pk: 'T#b', n: 5 } } },
        ],
      }),
    );
    expect(await read('T#gate')).toBeUndefined();
    expect(await read('T#a')).toEqual({ pk: 'T#a', n: 1 });
    expect(await read('T#b')).toEqual({ pk: 'T#b', n: 5 });
  });

  it('writes nothing when one condition fails, and names it with the old item', async () => {
    const attempt = standIns.inspector.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: standIns.tableName,
              Key: { pk: 'T#a' },
              UpdateExpression: 'ADD n :one',
              ExpressionAttributeValues: { ':one': 1 },
            },
          },
          { Put: { TableName: standIns.tableName, Item: { pk: 'T#c', n: 1 } } },
          {
            Update: {
              TableName: standIns.tableName,
              Key: { pk: 'T#b' },
              UpdateExpression: 'ADD n :one',
              ConditionExpression: 'n < :limit',
              ExpressionAttributeValues: { ':one': 1, ':limit': 5 },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          },
        ],
      }),
    );
    const error = await attempt.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransactionCanceledException);
    const reasons = error instanceof TransactionCanceledException ? error.CancellationReasons : undefined;
    expect(reasons?.map((reason) => reason.Code)).toEqual(['None', 'None', 'ConditionalCheckFailed']);
    expect(reasons?.[2]?.Item).toEqual({ pk: { S: 'T#b' }, n: { N: '5' } });
    expect(await read('T#a')).toEqual({ pk: 'T#a', n: 1 });
    expect(await read('T#c')).toBeUndefined();
  });

  it('runs alone: 20 concurrent increments of one limited counter never pass the limit', async () => {
    const one = () =>
      standIns.inspector
        .send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: standIns.tableName,
                  Key: { pk: 'T#limited' },
                  UpdateExpression: 'ADD n :one',
                  ConditionExpression: 'attribute_not_exists(n) OR n < :limit',
                  ExpressionAttributeValues: { ':one': 1, ':limit': 7 },
                },
              },
              {
                Update: {
                  TableName: standIns.tableName,
                  Key: { pk: 'T#mirror' },
                  UpdateExpression: 'ADD n :one',
                  ExpressionAttributeValues: { ':one': 1 },
                },
              },
            ],
          }),
        )
        .then(
          () => true,
          () => false,
        );
    const outcomes = await Promise.all(Array.from({ length: 20 }, one));
    expect(outcomes.filter(Boolean)).toHaveLength(7);
    expect(await read('T#limited')).toEqual({ pk: 'T#limited', n: 7 });
    expect(await read('T#mirror')).toEqual({ pk: 'T#mirror', n: 7 });
  });
});
