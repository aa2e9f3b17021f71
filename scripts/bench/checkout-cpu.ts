/**
 * create-checkout's CPU per checkout, the handler's own apart from its SDKs' (issue 47). Three
 * warm containers on the same stand-ins, timed in interleaved rounds (drift on a busy machine then
 * lands on all three): `whole`, as deployed; `own`, every DynamoDB and Stripe call answered in this
 * process with that call's recorded answer (so no SDK middleware, marshalling, signing or socket
 * runs: what is left is our code, zod, the logger and JSON); `stripe`, only DynamoDB answered so.
 * The AWS SDK's share is whole − stripe, Stripe's stripe − own. The events are made before the
 * clock starts; the logger writes its lines (to nothing) and stacks are not source-mapped, as in Lambda.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type Stripe from 'stripe';
import { createCheckoutHandler, loadCheckoutDeps } from '../../lambdas/handlers/create-checkout/handler';
import { logger } from '../../lambdas/lib/logger';
import { median, shuffle } from './figures';
import { benchCheckoutEvent } from './shop';

type Mode = 'whole' | 'stripe' | 'own';
/** Checkouts each container makes before the clock: V8 has optimised our code by then (fewer left it varying). */
const WARM_UP = 150;
type CheckoutHandler = ReturnType<typeof createCheckoutHandler>;

/** The last real answer of each DynamoDB command, and of Stripe's session create. */
const recorded = { dynamo: new Map<string, unknown>(), session: undefined as unknown };
/** The container running now: one at a time, so the wrapped clients know whose call it is. */
let running: Mode = 'whole';
const realSend = DynamoDBDocumentClient.prototype.send;

/** Every document client's send: recorded when real, answered from the record unless `whole` runs. */
function installSend(): () => void {
  DynamoDBDocumentClient.prototype.send = function (this: DynamoDBDocumentClient, ...args: unknown[]) {
    const name = (args[0] as { constructor: { name: string } }).constructor.name;
    if (running !== 'whole') {
      if (!recorded.dynamo.has(name)) return Promise.reject(new Error(`${name} was never recorded`));
      return Promise.resolve(recorded.dynamo.get(name));
    }
    return (realSend as (...sent: unknown[]) => Promise<unknown>).apply(this, args).then((answer) => {
      recorded.dynamo.set(name, answer);
      return answer;
    });
  } as typeof realSend;
  return () => {
    DynamoDBDocumentClient.prototype.send = realSend;
  };
}

/** Stripe's session create: recorded when real, answered from the record while `own` runs. */
function wrapStripe(stripe: Stripe): void {
  const sessions = stripe.checkout.sessions;
  const create = sessions.create.bind(sessions);
  sessions.create = (async (...args: Parameters<typeof create>) => {
    if (running === 'own' && recorded.session !== undefined) return recorded.session;
    const session = await create(...args);
    recorded.session = session;
    return session;
  }) as typeof sessions.create;
}

/** A warm container: its Stripe client wrapped (its document client is, through the prototype). */
function container(env: Record<string, string>): CheckoutHandler {
  return createCheckoutHandler(async () => {
    const deps = await loadCheckoutDeps(env);
    wrapStripe(deps.stripe);
    return deps;
  });
}

/** `count` checkouts on events made beforehand: this process's CPU per checkout in ms, and failures. */
async function timedRound(
  handler: CheckoutHandler,
  count: number,
): Promise<{ cpuMs: number; failures: number }> {
  const events = Array.from({ length: count }, () => benchCheckoutEvent());
  let failures = 0;
  const before = process.cpuUsage();
  for (const event of events) if ((await handler(event)).statusCode !== 200) failures += 1;
  const cpu = process.cpuUsage(before);
  return { cpuMs: (cpu.user + cpu.system) / 1000 / count, failures };
}

/**
 * As in Lambda meanwhile: the logger writing its lines (to nothing here; Lambda's stdout is a pipe
 * the runtime reads), and stack traces not mapped to sources (tsx maps them; a deployed function
 * does not, ADR 0015), which the Stripe SDK's call-site stack on every request would pay for.
 */
async function asDeployed<T>(act: () => Promise<T>): Promise<T> {
  const write = process.stdout.write;
  const sourceMaps = process.sourceMapsEnabled;
  process.stdout.write = (() => true) as typeof process.stdout.write;
  process.setSourceMapsEnabled(false);
  logger.setLogLevel('INFO');
  try {
    return await act();
  } finally {
    logger.setLogLevel('SILENT');
    process.setSourceMapsEnabled(sourceMaps);
    process.stdout.write = write;
  }
}

export interface CheckoutCpu {
  /** Median over the rounds of each container's CPU per checkout, in ms. */
  whole: number;
  stripe: number;
  own: number;
  rounds: Record<Mode, number[]>;
  failures: number;
  perRound: number;
}

/** `rounds` rounds of `perRound` checkouts on each container, in a new order each round, after a warm-up. */
export async function checkoutCpu(
  env: Record<string, string>,
  rounds = 7,
  perRound = 60,
): Promise<CheckoutCpu> {
  const restore = installSend();
  try {
    const modes: Mode[] = ['whole', 'stripe', 'own'];
    const handlers = new Map(modes.map((mode) => [mode, container(env)] as const));
    const times: Record<Mode, number[]> = { whole: [], stripe: [], own: [] };
    let failures = 0;
    // The whole container first: its real answers are what the others replay.
    for (const mode of modes) {
      running = mode;
      await timedRound(handlers.get(mode) as CheckoutHandler, WARM_UP);
    }
    await asDeployed(async () => {
      for (let round = 0; round < rounds; round += 1) {
        for (const mode of shuffle([...modes])) {
          running = mode;
          const result = await timedRound(handlers.get(mode) as CheckoutHandler, perRound);
          times[mode].push(result.cpuMs);
          failures += result.failures;
        }
      }
    });
    running = 'whole';
    return {
      whole: median(times.whole),
      stripe: median(times.stripe),
      own: median(times.own),
      rounds: times,
      failures,
      perRound,
    };
  } finally {
    restore();
  }
}
