import type Stripe from 'stripe';
import { startFulfilmentHarness } from '../../test/support/fulfilment-harness';
import { percentile, raw, record, round, section } from './figures';

// ---------------------------------------------------------------------------------------------
// Fulfilment throughput

const SESSIONS = 400;
const IN_FLIGHT = 16;

type Harness = Awaited<ReturnType<typeof startFulfilmentHarness>>;
type Spent = Record<'dynamo' | 'ses' | 'stripe', { calls: number; ms: number }>;

export async function fulfilmentFigures() {
  section(`Fulfilment: ${SESSIONS} paid sessions, ${IN_FLIGHT} webhook deliveries in flight`);
  const harness = await startFulfilmentHarness();
  try {
    const sessions = await paidSessions(harness);
    const deliveries = await Promise.all(
      sessions.map(async (id) => harness.delivery(await harness.eventFor('checkout.session.completed', id))),
    );
    const spent = meterCalls(harness);
    // One at a time first (a tenth of the sessions), for the breakdown; then the rest, 16 in flight.
    const sequential = deliveries.splice(0, SESSIONS / 10);
    const sequentialStarted = performance.now();
    for (const delivery of sequential) await harness.webhook(delivery);
    const perOrderMs = (performance.now() - sequentialStarted) / sequential.length;
    const breakdown = Object.fromEntries(
      Object.entries(spent).map(([service, { calls, ms }]) => [
        service,
        { calls: calls / sequential.length, ms: ms / sequential.length },
      ]),
    );
    for (const meterOf of Object.values(spent)) Object.assign(meterOf, { calls: 0, ms: 0 });
    const concurrent = await deliverConcurrently(harness, deliveries);
    const wrong = await notExactlyOnce(harness, sessions);
    const rate = deliveries.length / concurrent.seconds;
    record({
      section: 'fulfilment',
      name: 'fulfilment throughput',
      value: Math.round(rate),
      unit: 'orders/s',
      detail: `${deliveries.length} deliveries in ${round(concurrent.seconds, 2)} s; ${concurrent.failed} non-200 answers`,
      target: '≥ 150',
      pass: rate >= 150 && concurrent.failed === 0,
    });
    record({
      section: 'fulfilment',
      name: 'exactly once (1 order, 1 confirmation, 1 merchant notice each)',
      value: wrong.length === 0 ? 'yes' : `no: ${wrong.length} sessions wrong`,
      unit: '',
      target: 'yes',
      pass: wrong.length === 0,
    });
    const part = (service: string) => breakdown[service] ?? { calls: 0, ms: 0 };
    const { durations } = concurrent;
    record({
      section: 'fulfilment',
      name: 'per order, one at a time: calls (time) DynamoDB / SES / Stripe',
      value: `${round(part('dynamo').calls, 1)} (${round(part('dynamo').ms)} ms) / ${round(part('ses').calls, 1)} (${round(part('ses').ms)} ms) / ${round(part('stripe').calls, 1)} (${round(part('stripe').ms)} ms)`,
      unit: '',
      detail: `${round(perOrderMs)} ms an order alone; with ${IN_FLIGHT} in flight p50 ${round(percentile(durations, 50))} ms, p99 ${round(percentile(durations, 99))} ms`,
    });
    raw.fulfilment = { seconds: concurrent.seconds, perOrderMs, breakdown, durations };
  } finally {
    await harness.close();
  }
}

/** SESSIONS sessions paid in the simulator beforehand, IN_FLIGHT at a time. */
async function paidSessions(harness: Harness): Promise<string[]> {
  const sessions: string[] = [];
  let made = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (made < SESSIONS) {
        made += 1;
        sessions.push((await harness.paidSession()).id);
      }
    }),
  );
  return sessions;
}

/**
 * Calls and the time spent in them, by service; the stand-ins run in this process, so with one
 * request at a time this is where an order's time goes.
 */
function meterCalls(harness: Harness): Spent {
  const spent: Spent = { dynamo: { calls: 0, ms: 0 }, ses: { calls: 0, ms: 0 }, stripe: { calls: 0, ms: 0 } };
  const meter =
    (service: 'dynamo' | 'ses') =>
    <T>(next: (args: T) => Promise<unknown>) =>
    async (args: T) => {
      const t = performance.now();
      try {
        return await next(args);
      } finally {
        spent[service].calls += 1;
        spent[service].ms += performance.now() - t;
      }
    };
  harness.clients.documentClient.middlewareStack.add(meter('dynamo') as never, {
    step: 'initialize',
    name: 'benchDynamo',
  });
  harness.clients.ses.middlewareStack.add(meter('ses') as never, { step: 'initialize', name: 'benchSes' });
  harness.deps.stripe.on('response', (response: Stripe.ResponseEvent) => {
    spent.stripe.calls += 1;
    spent.stripe.ms += response.elapsed;
  });
  return spent;
}

/** The deliveries, IN_FLIGHT at a time, timed end to end. */
async function deliverConcurrently(
  harness: Harness,
  deliveries: ReadonlyArray<Parameters<Harness['webhook']>[0]>,
) {
  let next = 0;
  let failed = 0;
  const durations: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < deliveries.length) {
        const delivery = deliveries[next];
        next += 1;
        if (!delivery) continue;
        const t = performance.now();
        const result = await harness.webhook(delivery);
        durations.push(performance.now() - t);
        if (result.statusCode !== 200) failed += 1;
      }
    }),
  );
  return { durations, failed, seconds: (performance.now() - started) / 1000 };
}

/** The sessions without exactly one order, one confirmation and one merchant notice. */
async function notExactlyOnce(harness: Harness, sessions: readonly string[]): Promise<string[]> {
  const orders = await harness.standIns.orderItems();
  const emails = await harness.standIns.emails();
  return sessions.filter((id) => {
    const reference = id.slice(-12);
    const mine = emails.filter((email) => email.subject.includes(reference));
    const merchant = mine.filter((email) => email.destination.to.includes('merchant@live-aquatics.test'));
    const orderCount = orders.filter((item) => item.sessionId === id).length;
    return orderCount !== 1 || merchant.length !== 1 || mine.length - merchant.length !== 1;
  });
}
