import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrdersRepository,
  type OrdersRepository,
} from '../../../../lambdas/domain/storage/orders-repository';
import { createDocumentClient } from '../../../../lambdas/lib/aws';
import { orderFixture } from '../../../support/order-fixtures';
import { STAND_IN_REGION, type StandIns, startStandIns } from '../../../support/stand-ins';

// The email state machine's guards, each on its own against dynalite: only the holder of the
// current claim (its token) may mark the email sent, failed or released.
describe('orders repository: email claims and tokens', () => {
  let standIns: StandIns;
  let orders: OrdersRepository;
  let counter = 0;

  beforeAll(async () => {
    standIns = await startStandIns();
    orders = createOrdersRepository(
      createDocumentClient({ region: STAND_IN_REGION, endpoint: standIns.dynamoEndpoint }),
      standIns.tableName,
    );
  });
  afterAll(() => standIns.close());

  const T0 = new Date('2026-11-21T10:00:00Z');
  const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

  /** A fresh order whose confirmation A claimed at T0, then B took over as stale at T0 + 3 min. */
  async function claimTakenOver(): Promise<string> {
    counter += 1;
    const sessionId = `cs_test_tokens${String(counter).padStart(20, '0')}`;
    expect(await orders.createIfAbsent({ ...orderFixture(), pk: `ORDER#${sessionId}`, sessionId })).toBe(
      true,
    );
    expect(await orders.claimEmail(sessionId, 'confirmation', 'token-a', T0, minutes(-2))).toBe(true);
    expect(await orders.claimEmail(sessionId, 'confirmation', 'token-b', minutes(3), minutes(1))).toBe(true);
    return sessionId;
  }

  it('refuses a second claim while the first is fresh (2 minutes), and allows it once stale', async () => {
    // Prepare
    counter += 1;
    const sessionId = `cs_test_fresh${String(counter).padStart(21, '0')}`;
    await orders.createIfAbsent({ ...orderFixture(), pk: `ORDER#${sessionId}`, sessionId });
    await orders.claimEmail(sessionId, 'confirmation', 'token-a', T0, minutes(-2));

    // Act
    const whileFresh = await orders.claimEmail(sessionId, 'confirmation', 'token-b', minutes(1), minutes(-1));
    const onceStale = await orders.claimEmail(sessionId, 'confirmation', 'token-b', minutes(3), minutes(1));

    // Assess
    expect([whileFresh, onceStale]).toEqual([false, true]);
  });

  it('lets only the current claim’s token mark the email sent', async () => {
    // Prepare
    const sessionId = await claimTakenOver();

    // Act
    const byOldHolder = await orders.markEmailSent(sessionId, 'confirmation', 'token-a', 'msg-a', minutes(4));
    const byCurrent = await orders.markEmailSent(sessionId, 'confirmation', 'token-b', 'msg-b', minutes(4));

    // Assess
    expect([byOldHolder, byCurrent]).toEqual([false, true]);
    expect(await orders.get(sessionId)).toMatchObject({
      confirmationEmailState: 'sent',
      confirmationEmailMessageId: 'msg-b',
    });
  });

  it('lets only the current claim’s token release it', async () => {
    // Prepare
    const sessionId = await claimTakenOver();

    // Act
    await orders.releaseEmail(sessionId, 'confirmation', 'token-a');

    // Assess: B's claim stands.
    expect(await orders.get(sessionId)).toMatchObject({
      confirmationEmailState: 'sending',
      confirmationEmailClaimToken: 'token-b',
    });
  });

  it('lets only the current claim’s token mark it failed, and failed is final', async () => {
    // Prepare
    const sessionId = await claimTakenOver();

    // Act
    const byOldHolder = await orders.markEmailFailed(
      sessionId,
      'confirmation',
      'token-a',
      'MessageRejected',
      minutes(4),
    );
    const byCurrent = await orders.markEmailFailed(
      sessionId,
      'confirmation',
      'token-b',
      'address-not-ascii',
      minutes(4),
    );
    const claimAfter = await orders.claimEmail(
      sessionId,
      'confirmation',
      'token-c',
      minutes(60),
      minutes(58),
    );

    // Assess
    expect([byOldHolder, byCurrent, claimAfter]).toEqual([false, true, false]);
    expect(await orders.get(sessionId)).toMatchObject({
      confirmationEmailState: 'failed',
      confirmationEmailFailureReason: 'address-not-ascii',
      confirmationEmailFailedAt: '2026-11-21T10:04:00.000Z',
    });
  });

  it('never claims an email already sent, however stale', async () => {
    // Prepare
    const sessionId = await claimTakenOver();
    await orders.markEmailSent(sessionId, 'confirmation', 'token-b', 'msg-b', minutes(4));

    // Act
    const claimed = await orders.claimEmail(sessionId, 'confirmation', 'token-c', minutes(600), minutes(598));

    // Assess
    expect(claimed).toBe(false);
  });

  it('reads strongly consistent, so a just-written order is never missed', async () => {
    // Prepare
    const sent: unknown[] = [];
    const client = createDocumentClient({ region: STAND_IN_REGION, endpoint: standIns.dynamoEndpoint });
    client.middlewareStack.add(
      (next, context) => (args) => {
        if (context.commandName === 'GetItemCommand') sent.push(structuredClone(args.input));
        return next(args);
      },
      { step: 'initialize', name: 'record-gets' },
    );

    // Act
    await createOrdersRepository(client, standIns.tableName).get('cs_test_nothing000000000000');

    // Assess
    expect(sent).toEqual([expect.objectContaining({ ConsistentRead: true })]);
  });
});
