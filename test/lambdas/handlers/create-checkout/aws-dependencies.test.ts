import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeShopSettings } from '../../../../lambdas/domain/storage/settings-store';
import {
  createCheckoutHandler,
  loadCheckoutDeps,
} from '../../../../lambdas/handlers/create-checkout/handler';
import { jsonBody } from '../../../support/api-gateway-event';
import { type StandIns, startStandIns } from '../../../support/stand-ins';
import {
  checkoutEnvironment,
  checkoutEvent,
  createdSession,
  type Harness,
  handleCountingSessions,
  PERSONAL_DATA,
  recordingWebhookEndpoint,
  startHarness,
  TEST_SECRET_KEY,
  validOrder,
  withLogs,
} from './harness';

// create-checkout as deployed: its clients built from the environment (loadCheckoutDeps), the
// shop's table and SES on the stand-ins, Stripe on the simulator. What it must leave untouched
// is looked at where it would land: the table, the SES stand-in's store, a webhook endpoint.

let harness: Harness;
let standIns: StandIns;

beforeAll(async () => {
  harness = await startHarness();
  standIns = await startStandIns();
});
afterAll(async () => {
  await standIns?.close();
  await harness?.close();
});

function environment(overrides: Record<string, string> = {}): Record<string, string> {
  return { ...checkoutEnvironment(harness, standIns), ...overrides };
}

/** A local port nothing listens on: DynamoDB "down" for the SDK's real client. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('not on a TCP port');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address.port;
}

describe('create-checkout: with its AWS dependencies', () => {
  it("creating a session writes only its hold (on its day, and in the client's open holds) and its record, and sends nothing: no order, no SES message, no webhook event", async () => {
    // Prepare: a webhook endpoint that would notice any event, and proof that it does.
    const handle = createCheckoutHandler(() => loadCheckoutDeps(environment()));
    const recorder = await recordingWebhookEndpoint();
    harness.sim.setWebhook(recorder.endpoint);
    try {
      const control = createdSession(await handle(checkoutEvent()));
      await harness.sim.completeSession(control.sessionId);
      await harness.sim.idle();
      expect(recorder.received).toEqual(['checkout.session.completed']);
      recorder.received.length = 0;
      const itemsBefore = await standIns.orderItems();
      const emailsBefore = await standIns.emails();

      // Act
      const { sessionId } = createdSession(await handle(checkoutEvent()));
      await harness.sim.idle();

      // Assess: the one write is the session's hold on its dispatch day's bottles, counted as the client's.
      const session = harness.sim.getSession(sessionId);
      expect(session?.status).toBe('open');
      const dayKey = `CAPACITY#${session?.metadata?.dispatch_date}`;
      const isClients = (item: Record<string, unknown>) => String(item.pk).startsWith('CLIENT_HOLDS#');
      const isRecord = (item: Record<string, unknown>) => String(item.pk).startsWith('CHECKOUT_SESSION#');
      const others = (items: Array<Record<string, unknown>>) =>
        items.filter((item) => item.pk !== dayKey && !isClients(item) && !isRecord(item));
      const holdsOf = (items: Array<Record<string, unknown>>) => {
        const holds = items.find((item) => item.pk === dayKey)?.holds;
        return holds instanceof Set ? [...holds].map(String) : [];
      };
      const itemsAfter = await standIns.orderItems();
      expect(others(itemsAfter)).toEqual(others(itemsBefore));
      expect(holdsOf(itemsAfter).sort()).toEqual(
        [...holdsOf(itemsBefore), session?.metadata?.capacity_hold].sort(),
      );
      const clients = itemsAfter.filter(isClients);
      expect(clients).toHaveLength(1);
      const counted = clients[0]?.holds;
      expect(counted instanceof Set ? [...counted] : []).toContain(
        `${session?.metadata?.dispatch_date}/${session?.metadata?.capacity_hold}`,
      );
      // And the session's record, made once Stripe answered while the shop was open (ADR 0052).
      expect(itemsAfter.filter(isRecord).length).toBe(itemsBefore.filter(isRecord).length + 1);
      expect(itemsAfter.find((item) => item.pk === `CHECKOUT_SESSION#${sessionId}`)).toMatchObject({
        hold: session?.metadata?.capacity_hold,
        reservedDay: session?.metadata?.dispatch_date,
      });
      expect(await standIns.emails()).toEqual(emailsBefore);
      expect(recorder.received).toEqual([]);
    } finally {
      harness.sim.setWebhook(undefined);
      await recorder.close();
    }
  });

  it('AWS error (DynamoDB unreachable): a generic 503 body, the detail in the log, no session, no PII logged', async () => {
    // Prepare
    const port = await closedPort();
    const handle = createCheckoutHandler(() =>
      loadCheckoutDeps(environment({ DYNAMODB_ENDPOINT: `http://127.0.0.1:${port}` })),
    );

    // Act
    const {
      result: { result, newSessions },
      logged,
    } = await withLogs(() => handleCountingSessions({ ...harness, handle }, checkoutEvent()));

    // Assess: the page shows its "Checkout Failed" toast for any answer that is not a session.
    expect(result.statusCode).toBe(503);
    expect(jsonBody(result)).toEqual({
      error: 'The shop is temporarily unavailable. Please try again in a few minutes.',
    });
    expect(result.body).not.toContain('ECONNREFUSED');
    expect(result.body).not.toContain(String(port));
    expect(newSessions).toEqual([]);
    expect(logged).toContain('"statusCode":503');
    expect(logged).toContain('ECONNREFUSED');
    for (const value of [...PERSONAL_DATA, TEST_SECRET_KEY]) expect(logged).not.toContain(value);
  });

  it('header injection in requests mode, where checkout itself emails: "\\r\\nBcc:" in a name or email is rejected before any email exists', async () => {
    // Prepare: requests mode, and proof that a valid order there does send email (the merchant's notice).
    const table = { client: standIns.inspector, tableName: standIns.tableName };
    await writeShopSettings(table, { mode: 'requests' }, new Date());
    try {
      const handle = createCheckoutHandler(() => loadCheckoutDeps(environment()));
      const post = (body: unknown) =>
        handle(checkoutEvent({ body, headers: { 'Idempotency-Key': randomUUID() } }));
      const control = await post(validOrder);
      expect(control.statusCode).toBe(200);
      expect(jsonBody(control)).toEqual({
        status: 'received',
        reference: expect.stringMatching(/^R[0-9A-F]{11}$/),
      });
      const emailsBefore = await standIns.emails();
      expect(emailsBefore.map((email) => email.subject)).toEqual([
        expect.stringMatching(/^Order request R[0-9A-F]{11}: 3 bottles \(not paid\)$/),
      ]);
      const itemsBefore = await standIns.orderItems();

      // Act
      const results = await Promise.all([
        post({ ...validOrder, name: 'Zoë\r\nBcc: victim@example.com' }),
        post({ ...validOrder, email: 'zoe@example.com\r\nBcc: victim@example.com' }),
      ]);

      // Assess
      expect(results.map((result) => result.statusCode)).toEqual([400, 400]);
      expect(await standIns.emails()).toEqual(emailsBefore);
      expect(await standIns.orderItems()).toEqual(itemsBefore);
    } finally {
      await writeShopSettings(table, { mode: 'open' }, new Date());
    }
  });
});
