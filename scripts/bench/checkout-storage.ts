/**
 * `npm run bench -- checkout`: what one checkout costs create-checkout, issue 47's targets. Its
 * DynamoDB calls, counted by command on the document client's send: the first checkout of a cold
 * container (it reads the settings), then 100 of a warm one (the settings cached, read again every
 * 5 seconds). Its CPU (checkout-cpu.ts): the handler's own, its SDKs' calls answered in this
 * process, against the target; and this process's with the SDKs, split into the AWS SDK's and
 * Stripe's shares; the Stripe simulator and dynalite in a process of their own (stand-ins.ts), as
 * in AWS their work is done elsewhere.
 */
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { createCheckoutHandler, loadCheckoutDeps } from '../../lambdas/handlers/create-checkout/handler';
import { ordersTable } from '../../lambdas/lib/aws';
import { checkoutRuntimeEnvSchema, parseEnv } from '../../lambdas/lib/config';
import { logger } from '../../lambdas/lib/logger';
import { checkoutCpu } from './checkout-cpu';
import { raw, record, round, section } from './figures';
import { benchCheckoutEvent, checkoutEnvironment, startStandInsProcess } from './shop';

type CheckoutHandler = ReturnType<typeof createCheckoutHandler>;

/** Runs `act`, counting the document client's commands by name meanwhile. */
async function countingCalls(
  act: () => Promise<number>,
): Promise<{ calls: Record<string, number>; failures: number }> {
  const calls: Record<string, number> = {};
  const send = DynamoDBDocumentClient.prototype.send;
  DynamoDBDocumentClient.prototype.send = function (this: DynamoDBDocumentClient, ...args: unknown[]) {
    const name = (args[0] as { constructor: { name: string } }).constructor.name.replace(/Command$/, '');
    calls[name] = (calls[name] ?? 0) + 1;
    return (send as (...sent: unknown[]) => unknown).apply(this, args);
  } as typeof send;
  try {
    return { calls, failures: await act() };
  } finally {
    DynamoDBDocumentClient.prototype.send = send;
  }
}

/** `count` sequential checkouts: how many did not answer 200. */
async function checkouts(handler: CheckoutHandler, count: number): Promise<number> {
  let failures = 0;
  for (let index = 0; index < count; index += 1) {
    if ((await handler(benchCheckoutEvent())).statusCode !== 200) failures += 1;
  }
  return failures;
}

function describeCalls(calls: Record<string, number>, per: number): string {
  return Object.entries(calls)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, count]) => `${round(count / per, 2)} ${name}`)
    .join(', ');
}

function callsOf(calls: Record<string, number>): number {
  return Object.values(calls).reduce((sum, count) => sum + count, 0);
}

export async function checkoutStorageFigures() {
  section('create-checkout: DynamoDB calls and CPU per checkout (stand-ins in a process of their own)');
  logger.setLogLevel('SILENT');
  const standIns = await startStandInsProcess();
  const env = checkoutEnvironment(standIns.env);
  try {
    const cold = createCheckoutHandler(() => loadCheckoutDeps(env));
    const first = await countingCalls(() => checkouts(cold, 1));
    record({
      section: 'checkout',
      name: 'create-checkout DynamoDB calls, first checkout of a cold container',
      value: callsOf(first.calls),
      unit: '',
      detail: `${describeCalls(first.calls, 1)}${first.failures > 0 ? '; it did not answer 200' : ''}`,
      target: '≤ 3',
      pass: callsOf(first.calls) <= 3 && first.failures === 0,
    });

    const warm = createCheckoutHandler(() => loadCheckoutDeps(env));
    await checkouts(warm, 50);
    const WARM = 100;
    const counted = await countingCalls(() => checkouts(warm, WARM));
    const perCheckout = callsOf(counted.calls) / WARM;
    record({
      section: 'checkout',
      name: 'create-checkout DynamoDB calls per checkout (warm)',
      value: round(perCheckout, 2),
      unit: '',
      detail: `${describeCalls(counted.calls, WARM)}; ${counted.failures > 0 ? `${counted.failures} answers were not 200` : `${WARM} checkouts`}`,
      target: '≤ 3',
      pass: perCheckout <= 3 && counted.failures === 0,
    });

    await cpuFigures(env, { coldCalls: first.calls, warmCalls: counted.calls });
    await getItemCpu(env);
  } finally {
    await standIns.close();
  }
}

/** The handler's own CPU per checkout against its target, and with its SDKs (checkout-cpu.ts). */
async function cpuFigures(env: Record<string, string>, calls: Record<string, unknown>) {
  const cpu = await checkoutCpu(env);
  raw.checkout = { ...calls, cpuMsPerCheckout: cpu };
  const answers = cpu.failures > 0 ? `${cpu.failures} answers were not 200` : 'all 200';
  const rounds = `median of ${cpu.rounds.own.length} rounds of ${cpu.perRound}`;
  record({
    section: 'checkout',
    name: "create-checkout handler's own CPU per checkout (warm)",
    value: round(cpu.own, 2),
    unit: 'ms',
    detail: `its DynamoDB and Stripe calls answered in-process, so no SDK runs; ${rounds} (range ${round(Math.min(...cpu.rounds.own), 2)}–${round(Math.max(...cpu.rounds.own), 2)}); ${answers}`,
    target: '≤ 5',
    pass: cpu.own <= 5 && cpu.failures === 0,
  });
  record({
    section: 'checkout',
    name: 'create-checkout CPU per checkout with its SDKs (warm)',
    value: round(cpu.whole, 2),
    unit: 'ms',
    detail: `this process's, stand-ins apart; of it the AWS SDK's ${round(cpu.whole - cpu.stripe, 2)} ms (with DynamoDB answered in-process: ${round(cpu.stripe, 2)} ms), Stripe's ${round(cpu.stripe - cpu.own, 2)} ms; ${rounds}`,
  });
}

/**
 * A yardstick for the CPU figure on a busy machine: one GetItem through the document client, as
 * the Lambda builds it, against the same dynalite (300 in a row, nothing else running here).
 */
async function getItemCpu(env: Record<string, string>) {
  const table = ordersTable(parseEnv(checkoutRuntimeEnvSchema, env));
  const get = () =>
    table.client.send(
      new GetCommand({ TableName: table.tableName, Key: { pk: 'BENCH#none' }, ConsistentRead: true }),
    );
  for (let index = 0; index < 50; index += 1) await get();
  const GETS = 300;
  const cpuBefore = process.cpuUsage();
  for (let index = 0; index < GETS; index += 1) await get();
  const cpu = process.cpuUsage(cpuBefore);
  table.client.destroy();
  record({
    section: 'checkout',
    name: 'document client CPU per call (GetItem)',
    value: round((cpu.user + cpu.system) / 1000 / GETS, 2),
    unit: 'ms',
    detail: `${GETS} in a row against the same dynalite: the SDK's middleware, signing and socket writes`,
  });
}
