import type Stripe from 'stripe';
import { startFulfilmentHarness } from '../../test/support/fulfilment-harness';
import { percentile, raw, record, round, section } from './figures';

// ---------------------------------------------------------------------------------------------
// Fulfilment throughput

export async function fulfilmentFigures() {
  const SESSIONS = 400;
  const IN_FLIGHT = 16;
  section(`Fulfilment: ${SESSIONS} paid sessions, ${IN_FLIGHT} webhook deliveries in flight`);
  const harness = await startFulfilmentHarness();
  try {
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
    const deliveries = await Promise.all(
      sessions.map(async (id) => harness.delivery(await harness.eventFor('checkout.session.completed', id))),
    );
    // Calls and the time spent in them, by service; the stand-ins run in this process, so with one
    // request at a time this is where an order's time goes.
    const spent = { dynamo: { calls: 0, ms: 0 }, ses: { calls: 0, ms: 0 }, stripe: { calls: 0, ms: 0 } };
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
    const concurrent = deliveries.length;
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
    const seconds = (performance.now() - started) / 1000;
    const orders = await harness.standIns.orderItems();
    const emails = await harness.standIns.emails();
    const wrong = sessions.filter((id) => {
      const reference = id.slice(-12);
      const mine = emails.filter((email) => email.subject.includes(reference));
      const merchant = mine.filter((email) => email.destination.to.includes('merchant@live-aquatics.test'));
      const orderCount = orders.filter((item) => item.sessionId === id).length;
      return orderCount !== 1 || merchant.length !== 1 || mine.length - merchant.length !== 1;
    });
    const rate = concurrent / seconds;
    record({
      section: 'fulfilment',
      name: 'fulfilment throughput',
      value: Math.round(rate),
      unit: 'orders/s',
      detail: `${concurrent} deliveries in ${round(seconds, 2)} s; ${failed} non-200 answers`,
      target: '≥ 150',
      pass: rate >= 150 && failed === 0,
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
    record({
      section: 'fulfilment',
      name: 'per order, one at a time: calls (time) DynamoDB / SES / Stripe',
      value: `${round(part('dynamo').calls, 1)} (${round(part('dynamo').ms)} ms) / ${round(part('ses').calls, 1)} (${round(part('ses').ms)} ms) / ${round(part('stripe').calls, 1)} (${round(part('stripe').ms)} ms)`,
      unit: '',
      detail: `${round(perOrderMs)} ms an order alone; with ${IN_FLIGHT} in flight p50 ${round(percentile(durations, 50))} ms, p99 ${round(percentile(durations, 99))} ms`,
    });
    raw.fulfilment = { seconds, perOrderMs, breakdown, durations };
  } finally {
    await harness.close();
  }
}
