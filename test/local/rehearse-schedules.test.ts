import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Rehearsal, startRehearsal } from '../../local/rehearse/rehearsal';
import { testStage } from '../../local/rehearse/synth';

describe('npm run rehearse: the template’s schedules', () => {
  const lines: string[] = [];
  let shop: Rehearsal;
  let dynamo: DynamoDBClient;

  beforeAll(async () => {
    shop = await startRehearsal({
      assemblyDir: (await testStage()).dir,
      port: 0,
      dynamoPort: 0,
      sesPort: 0,
      simulatorPort: 0,
      identityProviderPort: 0,
      extensionPort: 0,
      controlPort: 0,
      log: (line) => lines.push(line),
    });
    dynamo = new DynamoDBClient({
      region: 'eu-west-2',
      endpoint: shop.dynamoUrl,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    });
  }, 600_000);

  afterAll(async () => {
    dynamo?.destroy();
    await shop?.close();
  });

  it('lists each rule with its expression and function at start-up, the weather notice’s cron included', async () => {
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^schedule ReconcileSchedule\w+ rate\(15 minutes\) → ReconcileOrdersFunction\w+: every 15 min and on request, POST http:\/\/127\.0\.0\.1:\d+\/__rehearse\/schedules\/ReconcileSchedule\w+\/run$/,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^schedule WeatherNoticeSchedule\w+ cron\(30 18 \* \* \? \*\) → WeatherNoticeFunction\w+: on request, /,
      ),
    );
    const listed = await fetch(`${shop.controlUrl}/__rehearse/schedules`);
    const body = z
      .object({ schedules: z.array(z.object({ rule: z.string(), expression: z.string() })) })
      .parse(await listed.json());
    expect(body.schedules.map((schedule) => schedule.expression).sort()).toEqual([
      'cron(30 18 * * ? *)',
      'rate(15 minutes)',
    ]);
  });

  it('runs the reconciler’s rule now: a paid order whose webhook was lost is fulfilled', async () => {
    const checkout = await fetch(`${shop.url}/functions/v1/create-checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': `schedules-${Date.now()}` },
      body: JSON.stringify({
        name: 'Sam Schedule',
        email: 'sam@example.com',
        phone: '07700 900456',
        address: '2 Pond Lane\nBath',
        postcode: 'BA1 1AA',
        quantity: 3,
        subtotal: 9.75,
        shipping: 4.95,
        total: 14.7,
      }),
    });
    expect(checkout.status).toBe(200);
    const { sessionId } = z.object({ sessionId: z.string() }).parse(await checkout.json());
    // The webhook never arrives: only the reconciler can find the payment.
    shop.simulator.setWebhook(undefined);
    await shop.simulator.completeSession(sessionId);
    const order = () =>
      dynamo.send(
        new GetItemCommand({
          TableName: shop.ordersTableName,
          Key: { pk: { S: `ORDER#${sessionId}` } },
          ConsistentRead: true,
        }),
      );
    expect((await order()).Item).toBeUndefined();

    const run = await fetch(`${shop.controlUrl}/__rehearse/schedules/ReconcileSchedule/run`, {
      method: 'POST',
    });
    expect(run.status).toBe(200);
    const answer = z
      .object({
        rule: z.string(),
        target: z.string(),
        result: z.object({ fulfilledMissedOrders: z.number(), failed: z.number() }),
      })
      .parse(await run.json());
    expect(answer.rule).toMatch(/^ReconcileSchedule/);
    expect(answer.target).toMatch(/^ReconcileOrdersFunction/);
    expect(answer.result).toMatchObject({ fulfilledMissedOrders: 1, failed: 0 });
    const item = (await order()).Item;
    expect(item?.totalPence?.N).toBe('1470');
    expect(item?.status?.S).toBe('paid');
    expect(lines.filter((line) => line.includes('AccessDenied'))).toEqual([]);
  }, 120_000);

  it('answers 404 naming the rules for a rule the template does not have', async () => {
    const run = await fetch(`${shop.controlUrl}/__rehearse/schedules/NoSuchSchedule/run`, { method: 'POST' });
    expect(run.status).toBe(404);
    expect(await run.json()).toMatchObject({ error: 'No schedule NoSuchSchedule' });
  });
});
