import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CorruptOrderError,
  createOrdersRepository,
} from '../../../../lambdas/domain/storage/orders-repository';
import { createDocumentClient } from '../../../../lambdas/lib/aws';
import { orderFixture } from '../../../support/order-fixtures';
import { STAND_IN_REGION, type StandIns, startStandIns } from '../../../support/stand-ins';

// Each test builds its own repository, as a new container would: nothing is shared from setup.

describe('orders repository: what the table holds is checked, and conditions are told apart from failures', () => {
  let standIns: StandIns;
  beforeAll(async () => {
    standIns = await startStandIns();
  });
  afterAll(() => standIns?.close());

  const repository = () =>
    createOrdersRepository(
      createDocumentClient({ region: STAND_IN_REGION, endpoint: standIns.dynamoEndpoint }),
      standIns.tableName,
    );

  it('an order item edited by hand into the wrong shape is refused with CorruptOrderError naming each problem', async () => {
    const sessionId = 'cs_test_corrupt00000000000000001';
    const { totalPence: _dropped, ...withoutTotal } = orderFixture();
    await standIns.inspector.send(
      new PutCommand({
        TableName: standIns.tableName,
        Item: { ...withoutTotal, pk: `ORDER#${sessionId}`, sessionId, bottles: 'three' },
      }),
    );

    const error = await repository()
      .get(sessionId)
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(CorruptOrderError);
    expect(error).toMatchObject({ name: 'CorruptOrderError', sessionId });
    const { problems, message } = error as CorruptOrderError;
    expect(problems).toHaveLength(2);
    expect(problems.some((problem) => problem.startsWith('bottles: '))).toBe(true);
    expect(problems.some((problem) => problem.startsWith('totalPence: '))).toBe(true);
    expect(message).toBe(`Order ${sessionId} in the table is not a valid order item: ${problems.join('; ')}`);
  });

  it('a well-formed order reads back as written; an email marked sent by its claim holder is stored', async () => {
    const sessionId = 'cs_test_integrity000000000000001';
    const orders = repository();
    const order = { ...orderFixture(), pk: `ORDER#${sessionId}`, sessionId };
    const t0 = new Date('2026-11-21T10:00:00Z');

    expect(await orders.createIfAbsent(order)).toBe(true);
    expect(
      await orders.claimEmail(sessionId, 'confirmation', 'token-a', t0, new Date(t0.getTime() - 120_000)),
    ).toBe(true);
    expect(await orders.markEmailSent(sessionId, 'confirmation', 'token-a', 'ses-message-1', t0)).toBe(true);

    const stored = await orders.get(sessionId);
    expect(stored?.totalPence).toBe(order.totalPence);
    expect(stored).toMatchObject({
      confirmationEmailState: 'sent',
      confirmationEmailMessageId: 'ses-message-1',
    });
  });

  it('a ConditionalCheckFailedException from another copy of the SDK (same name, other class) is a failed condition, not an error', async () => {
    const failing = (name: string) =>
      ({
        send: async () => {
          throw Object.assign(new Error('The conditional request failed'), { name });
        },
      }) as unknown as DynamoDBDocumentClient;

    const orders = createOrdersRepository(failing('ConditionalCheckFailedException'), 'orders');
    expect(await orders.createIfAbsent(orderFixture())).toBe(false);

    const other = createOrdersRepository(failing('ProvisionedThroughputExceededException'), 'orders');
    await expect(other.createIfAbsent(orderFixture())).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
    });
  });
});
