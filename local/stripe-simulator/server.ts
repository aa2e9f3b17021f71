/**
 * A local stand-in for Stripe Checkout that the real `stripe` SDK talks to over HTTP
 * (`new Stripe(key, { host, port, protocol: 'http' })`): the Checkout Sessions, PaymentIntents,
 * Charges and Refunds endpoints the shop uses, a hosted payment page at `/c/pay/:id` (card, or a
 * Bacs Direct Debit that settles later), and signed webhooks with retries. It refuses what Stripe
 * refuses, so a mistake in the shop fails here first rather than in production, and its test
 * hooks (faults, delayed payments, tampered sessions, Dashboard refunds, a clock to move) reach
 * the cases real Stripe makes hard.
 *
 * Endpoints:
 * - `POST /v1/checkout/sessions`: `expires_at` 30 minutes to 24 hours after creation (default 24 hours).
 * - `GET /v1/checkout/sessions`: newest first; `status` (open, complete, expired), `payment_intent`,
 *   `created`, `limit`, `starting_after`.
 * - `GET /v1/checkout/sessions/:id`; `POST /v1/checkout/sessions/:id/expire` (open sessions only).
 * - `GET /v1/payment_intents/:id`, `GET /v1/charges/:id`, `POST /v1/refunds`, `GET /v1/refunds/:id`.
 * - `POST /v1/webhook_endpoints` (`url`, `enabled_events`; the answer alone carries the signing
 *   `secret`), `GET /v1/webhook_endpoints` (newest first), `GET`, `POST` (update) and `DELETE`
 *   `/v1/webhook_endpoints/:id`. Endpoints are recorded, not delivered to: events go to `webhook`.
 * - `GET /v1/account`: the account itself, with its `capabilities` (`setCapabilities` changes them).
 * - Stripe Billing for standing orders (billing-api.ts, billing.ts): a `mode=subscription` session
 *   paid makes a customer, a subscription and its first invoice; renewals when the clock passes a
 *   period end; subscriptions, invoices, customers and test clocks through the API.
 * - `POST /test-hooks/subscriptions/:id/fail-next-renewal`: `failNextRenewal` for a test in another
 *   process (the browser tests).
 *
 * Restricted keys listed in `restrictedKeys` may call only what their permissions allow, and are
 * refused otherwise with Stripe's 403 naming the missing permission.
 *
 * A session expires by itself when its `expires_at` passes on the simulator's clock (checked every
 * second, and whenever the session is read or `advanceClock` moves the clock), sending
 * `checkout.session.expired` once; its page then refuses payment.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type Stripe from 'stripe';
import { type KeptFile, keptFile } from '../kept-file';
import { decodePathSegment, handleApiRequest } from './api';
import type { ApiContext } from './api-types';
import { SimulatorClock } from './clock';
import { Delays } from './delays';
import { FaultInjector, type FaultSpec } from './faults';
import { BodyTooLargeError, bodyTooLarge, readBody } from './form-body';
import { IdempotencyStore } from './idempotency';
import { type KeptSimulatorState, keptSimulatorStateSchema } from './kept-state';
import { buildEvent, type CheckoutSessionRecord } from './objects';
import { handlePaymentPage, type PageContext, type PageResponse } from './payment-page';
import type { RestrictedKeys } from './permissions';
import { StateError, Store } from './store';
import { WebhookEndpointStore } from './webhook-endpoints';
import { type WebhookDelivery, type WebhookEndpoint, WebhookSender } from './webhooks';

export type { CheckoutSessionRecord } from './objects';
export type { RestrictedKeys, StripePermission } from './permissions';
export type { WebhookDelivery, WebhookEndpoint } from './webhooks';

export interface StripeSimulatorOptions {
  /** Default 12111; 0 picks a free port. */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Base of the hosted page URLs handed to browsers; default `http://localhost:${port}`. */
  publicUrl?: string;
  /** Where signed events go; without it events are only logged. */
  webhook?: WebhookEndpoint;
  /** Waits between retries after a non-2xx answer or a network error; default [1000, 5000, 30000, 120000]. */
  webhookRetryDelaysMs?: number[];
  /**
   * How long, on the simulator's clock, a Direct Debit paid on the hosted page with "settles later"
   * waits before it settles; default 180000, like Stripe's delayed test bank accounts. The
   * processing page can settle it at once, and `advanceClock` can move time past it.
   */
  asyncSettleDelayMs?: number;
  /**
   * The base of the simulator's clock in epoch milliseconds (default `Date.now`). A harness whose
   * code under test reads a clock it moves can share it here, so the simulator's sessions expire,
   * and its webhooks are signed, on the same time the code checks them against.
   */
  now?: () => number;
  /**
   * Restricted keys (`rk_test_…`) and the permissions each has; a key not listed may call every
   * endpoint. A call its permissions do not cover gets Stripe's 403 naming the one it lacks.
   */
  restrictedKeys?: RestrictedKeys;
  /**
   * The account's capabilities (`GET /v1/account`); default card and Bacs Direct Debit payments
   * active, as on a UK account that turned Bacs on.
   */
  capabilities?: Stripe.Account.Capabilities;
  /**
   * A JSON file the simulator keeps its objects in between runs (`npm start`'s
   * `.local-data/stand-ins/stripe-simulator.json`): read at start, written shortly after each
   * change and at close. Without it everything lives in memory, as tests want.
   */
  stateFile?: string;
  /**
   * The clock deliveries are signed on (epoch ms); default the simulator's. Stripe signs each
   * delivery at the real time whatever a test clock says, so a stack whose webhook handler reads the
   * host's clock while its tests move Stripe's (the browser tests) passes `Date.now`.
   */
  signingNow?: () => number;
  log?: (line: string) => void;
}

export interface StripeSimulator {
  /** e.g. http://127.0.0.1:54321 */
  url: string;
  port: number;
  /**
   * The next `times` API requests (optionally only those whose path starts with `pathPrefix`)
   * fail with an HTTP `status` and a Stripe `api_error`, or hang for `delayMs` (or until the
   * promise of `hold` settles) and are then answered normally (or, with both, hang and then fail).
   * Hosted pages are never affected.
   */
  injectFault(fault: FaultSpec): void;
  clearFaults(): void;
  /**
   * Pays an open session as the hosted page would (4242 card): completes it and sends
   * `checkout.session.completed`. `paymentStatus: 'unpaid'` pays by Bacs Direct Debit, a delayed method
   * (completed but unpaid). Resolves after the first webhook delivery attempt finished.
   */
  completeSession(
    id: string,
    options?: { paymentStatus?: 'paid' | 'unpaid' },
  ): Promise<CheckoutSessionRecord>;
  /** For delayed methods: marks the session paid and sends `…async_payment_succeeded` (or `_failed`, leaving it unpaid). */
  settleAsyncPayment(id: string, outcome: 'succeeded' | 'failed'): Promise<CheckoutSessionRecord>;
  /**
   * A refund made in the Stripe Dashboard: refunds the payment of a session (`cs_…`), a PaymentIntent
   * (`pi_…`) or a charge (`ch_…`), in full unless `amount` says less, and sends `charge.refunded`.
   * Resolves after the first webhook delivery attempt; throws Stripe's refusal (e.g. already refunded).
   */
  refundFromDashboard(
    id: string,
    options?: { amount?: number; reason?: Stripe.Refund.Reason },
  ): Promise<Stripe.Refund>;
  /** Every refund made, through the API or the Dashboard hook, oldest first. */
  readonly refunds: ReadonlyArray<Stripe.Refund>;
  /**
   * Moves the simulator's clock forward by `ms`, as if that much time had passed at Stripe: every
   * Direct Debit due to settle meanwhile settles, and every open session whose `expires_at` is now
   * past expires and sends `checkout.session.expired`. Resolves with the ids of the sessions it
   * expired, after the first delivery attempt of each event this sent. New sessions, events and
   * webhook signatures then carry the moved time, so a webhook handler checking signatures on the
   * real clock would see them as from the future: share one clock with `now` when both must agree.
   */
  advanceClock(ms: number): Promise<string[]>;
  /**
   * Expires now every open session whose `expires_at` has passed (the simulator otherwise does so
   * within a second): for a test that moved the clock it shares through `now`. Resolves like
   * `advanceClock`.
   */
  expireDueSessions(): Promise<string[]>;
  /** The simulator's clock, in Unix seconds. */
  nowSeconds(): number;
  /** Overrides fields of a stored session (amount_total, currency, metadata, created, expires_at, line_items…). */
  patchSession(id: string, patch: Partial<CheckoutSessionRecord>): void;
  /** Overrides fields of a stored PaymentIntent (status, last_payment_error…): states no hook reaches. */
  patchPaymentIntent(id: string, patch: Partial<Stripe.PaymentIntent>): void;
  /** A copy of the stored session with `line_items` filled in; undefined for an unknown id. */
  getSession(id: string): CheckoutSessionRecord | undefined;
  /**
   * The next `times` (default 1) renewals of a subscription are declined: each renewal invoice
   * stays `open` and sends `invoice.payment_failed`, and the subscription turns `past_due`.
   */
  failNextRenewal(subscriptionId: string, times?: number): void;
  /** The stored subscription (its period is on `items.data[i].current_period_start/end`). */
  getSubscription(id: string): Stripe.Subscription | undefined;
  getCustomer(id: string): Stripe.Customer | undefined;
  /** Every invoice, oldest first, or those of one subscription. */
  getInvoices(filter?: { subscription?: string }): Stripe.Invoice[];
  /** Every webhook delivery attempt, oldest first. */
  readonly deliveries: ReadonlyArray<WebhookDelivery>;
  /** Resolves when no webhook delivery or retry is pending. */
  idle(): Promise<void>;
  setWebhook(webhook: WebhookEndpoint | undefined): void;
  /** Changes some of the account's capabilities, as Stripe does when a payment method is turned on or off. */
  setCapabilities(capabilities: Stripe.Account.Capabilities): void;
  close(): Promise<void>;
}

const DEFAULT_PORT = 12111;
const DEFAULT_WEBHOOK_RETRY_DELAYS_MS = [1000, 5000, 30000, 120000];
/** How often, in real time, the simulator looks for sessions whose `expires_at` has passed. */
const EXPIRY_SWEEP_INTERVAL_MS = 1000;

/** Starts the Stripe Checkout simulator; the real `stripe` SDK talks to it with `host`, `port` and `protocol: 'http'`. */
export async function startStripeSimulator(options: StripeSimulatorOptions = {}): Promise<StripeSimulator> {
  const log = options.log ?? (() => {});
  const clock = new SimulatorClock(options.now);
  const webhooks = new WebhookSender({
    endpoint: options.webhook,
    retryDelaysMs: options.webhookRetryDelaysMs ?? DEFAULT_WEBHOOK_RETRY_DELAYS_MS,
    log,
    nowSeconds: () => (options.signingNow ? Math.floor(options.signingNow() / 1000) : clock.nowSeconds()),
  });
  const delays = new Delays();
  const server = createServer();
  const host = options.host ?? '127.0.0.1';
  const port = await listen(server, options.port ?? DEFAULT_PORT, host);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const publicUrl = (options.publicUrl ?? `http://localhost:${port}`).replace(/\/+$/, '');
  let kept: KeptFile<KeptSimulatorState> | undefined;
  const touch = () => kept?.touch();
  // Every change that sends an event is one to keep.
  const store = new Store((subject) => {
    touch();
    return webhooks.send(buildEvent(subject, clock.nowSeconds()));
  }, clock);
  const expireDue = dueRunner(store);
  const context = apiContext(options, { store, clock, delays, log, expireDue, publicUrl });
  const settlements = delayedSettlements(store, clock, options.asyncSettleDelayMs ?? 180_000, touch);
  kept = options.stateFile === undefined ? undefined : keepState(options.stateFile, context, settlements);

  // Stripe expires sessions without being asked; this finds them even if nothing reads them.
  const sweep = setInterval(() => void expireDue(), EXPIRY_SWEEP_INTERVAL_MS);
  sweep.unref();
  const parts: ServedParts = { context, settleLater: settlements.settleLater, url };
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    serve(parts, request, response)
      .catch((error: unknown) => {
        log(`stripe simulator: ${request.method} ${request.url} failed: ${String(error)}`);
        if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        response.end('Internal error in the Stripe simulator');
      })
      // Any request may change something (a create, a payment, even a read that expires a session).
      .finally(touch);
  });

  return {
    url,
    port,
    ...sessionHooks(context, expireDue, touch),
    ...billingHooks(store, touch),
    // Getters here, not in a spread object: a spread would copy the list once, at start.
    get refunds() {
      return [...store.refunds.values()];
    },
    get deliveries() {
      return webhooks.deliveries;
    },
    idle: () => webhooks.idle(),
    setWebhook: (webhook) => webhooks.setEndpoint(webhook),
    setCapabilities: (capabilities) => {
      context.account = { capabilities: { ...context.account.capabilities, ...capabilities } };
    },
    async close() {
      clearInterval(sweep);
      kept?.flush();
      webhooks.close();
      delays.cancelAll();
      clock.cancelAll();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The SDK keeps connections alive; without this close() would wait for them to time out.
        server.closeAllConnections();
      });
    },
  };
}

/** What every endpoint's handler may use: the store, the clock, the faults and keys a test set. */
function apiContext(
  options: StripeSimulatorOptions,
  parts: {
    store: Store;
    clock: SimulatorClock;
    delays: Delays;
    log: (line: string) => void;
    expireDue: () => Promise<string[]>;
    publicUrl: string;
  },
): ApiContext {
  const { store, clock, delays, log, expireDue } = parts;
  return {
    store,
    webhookEndpoints: new WebhookEndpointStore(),
    restrictedKeys: options.restrictedKeys ?? {},
    account: {
      capabilities: options.capabilities ?? { card_payments: 'active', bacs_debit_payments: 'active' },
    },
    clock,
    faults: new FaultInjector(),
    idempotency: new IdempotencyStore(),
    payPageUrl: (id: string) => `${parts.publicUrl}/c/pay/${id}`,
    sleep: async (ms: number) => {
      if (ms > 0) await delays.wait(ms);
    },
    log,
    advanceClock: async (ms: number) => {
      await clock.advance(ms);
      await expireDue();
    },
  };
}

type Outcome = 'succeeded' | 'failed';

/** The Direct Debits waiting to settle, each on the simulator's clock. */
interface Settlements {
  settleLater(id: string, outcome: Outcome, delayMs?: number): void;
  /** Kept too, so a Direct Debit paid before a restart still settles after it. */
  pending(): KeptSimulatorState['pendingSettlements'];
}

function delayedSettlements(
  store: Store,
  clock: SimulatorClock,
  settleDelayMs: number,
  touch: () => void,
): Settlements {
  const pending = new Map<string, { outcome: Outcome; dueAtMs: number }>();
  return {
    settleLater(id, outcome, delayMs = settleDelayMs) {
      pending.set(id, { outcome, dueAtMs: clock.nowMs() + delayMs });
      touch();
      clock.schedule(delayMs, async () => {
        pending.delete(id);
        touch();
        try {
          await store.settle(id, outcome).delivered;
        } catch (error) {
          // Settled meanwhile from the processing page or a test hook: nothing left to do.
          if (!(error instanceof StateError)) throw error;
        }
      });
    },
    pending: () => [...pending].map(([sessionId, due]) => ({ sessionId, ...due })),
  };
}

/** The simulator's objects kept in `path` between runs: what it held is restored at once. */
function keepState(
  path: string,
  context: ApiContext,
  settlements: Settlements,
): KeptFile<KeptSimulatorState> {
  const { store, webhookEndpoints, idempotency, clock, log } = context;
  const kept = keptFile<KeptSimulatorState>({
    path,
    part: 'Stripe simulator',
    schema: keptSimulatorStateSchema,
    log,
    snapshot: () => ({
      version: 1,
      store: store.snapshot(),
      webhookEndpoints: webhookEndpoints.snapshot(),
      idempotencyKeys: idempotency.snapshot(),
      pendingSettlements: settlements.pending(),
    }),
  });
  const restored = kept.read();
  if (restored !== undefined) {
    store.restore(restored.store);
    webhookEndpoints.restore(restored.webhookEndpoints);
    idempotency.restore(restored.idempotencyKeys);
    for (const { sessionId, outcome, dueAtMs } of restored.pendingSettlements)
      settlements.settleLater(sessionId, outcome, Math.max(0, dueAtMs - clock.nowMs()));
    const { sessions, paymentIntents, refunds } = restored.store;
    log(
      `Stripe simulator: kept from ${kept.path}: ${sessions.length} sessions, ${paymentIntents.length} payments, ${refunds.length} refunds.`,
    );
  }
  return kept;
}

/** What a request is served with. */
interface ServedParts {
  context: ApiContext;
  settleLater: PageContext['settleLater'];
  /** The simulator's own address, for its welcome line. */
  url: string;
}

interface SimulatorRequest {
  method: string;
  pathname: string;
  query: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** The simulator's routes, first match wins: Stripe's API, the test hooks, the hosted page, a welcome. */
const ROUTES: ReadonlyArray<{
  matches: (request: SimulatorRequest) => boolean;
  serve: (parts: ServedParts, request: SimulatorRequest, response: ServerResponse) => Promise<void>;
}> = [
  { matches: ({ pathname }) => pathname.startsWith('/v1/'), serve: serveApi },
  {
    matches: ({ method, pathname }) => method === 'POST' && TEST_HOOK_PATH.test(pathname),
    serve: async ({ context }, { pathname }, response) => {
      serveTestHook(context.store, pathname, response);
    },
  },
  { matches: ({ pathname }) => PAY_PAGE_PATH.test(pathname), serve: servePayPage },
  {
    matches: ({ pathname }) => pathname === '/',
    serve: async ({ url }, _request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end(`Stripe Checkout simulator: API at ${url}/v1\n`);
    },
  },
];

const TEST_HOOK_PATH = /^\/test-hooks\/subscriptions\/([^/]+)\/fail-next-renewal$/;
const PAY_PAGE_PATH = /^\/c\/pay\/([^/]+)(\/settle)?$/;

async function serve(parts: ServedParts, incoming: IncomingMessage, response: ServerResponse): Promise<void> {
  const target = new URL(incoming.url ?? '/', 'http://simulator.invalid');
  let body: string;
  try {
    body = await readBody(incoming);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    sendJson(response, 413, {}, JSON.stringify(bodyTooLarge(), null, 2));
    return;
  }
  const request: SimulatorRequest = {
    method: incoming.method ?? 'GET',
    pathname: target.pathname,
    query: target.search.replace(/^\?/, ''),
    headers: incoming.headers,
    body,
  };
  const route = ROUTES.find((candidate) => candidate.matches(request));
  if (route !== undefined) return route.serve(parts, request, response);
  response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
  response.end('Not found\n');
}

async function serveApi({ context }: ServedParts, request: SimulatorRequest, response: ServerResponse) {
  const { method, pathname: path, query, headers, body } = request;
  const answer = await handleApiRequest(context, { method, path, query, headers, body });
  context.log(`${method} ${path} → ${answer.status}`);
  sendJson(response, answer.status, answer.headers, answer.body);
}

async function servePayPage(parts: ServedParts, request: SimulatorRequest, response: ServerResponse) {
  const page = PAY_PAGE_PATH.exec(request.pathname);
  const id = decodePathSegment(page?.[1] ?? '');
  const action = page?.[2] === undefined ? 'pay' : 'settle';
  const { store } = parts.context;
  const answer = await handlePaymentPage(
    { store, settleLater: parts.settleLater },
    request.method,
    id,
    request.body,
    action,
  );
  sendPage(response, answer);
}

type SessionHooks = Pick<
  StripeSimulator,
  | 'injectFault'
  | 'clearFaults'
  | 'completeSession'
  | 'settleAsyncPayment'
  | 'refundFromDashboard'
  | 'advanceClock'
  | 'expireDueSessions'
  | 'nowSeconds'
  | 'patchSession'
  | 'patchPaymentIntent'
  | 'getSession'
>;

/** The test hooks on faults, the clock, sessions, payments and refunds. */
function sessionHooks(
  context: ApiContext,
  expireDue: () => Promise<string[]>,
  touch: () => void,
): SessionHooks {
  const { store, clock, faults } = context;
  // Stored objects are never mutated (a change replaces them), so a shallow copy is a snapshot.
  const getSession = (id: string): CheckoutSessionRecord | undefined => {
    const entry = store.findSession(id);
    return entry === undefined ? undefined : { ...entry.session };
  };
  const sessionHookResult = (id: string): CheckoutSessionRecord => {
    const record = getSession(id);
    if (record === undefined) throw new Error(`No such Checkout Session: ${id}`);
    return record;
  };
  return {
    injectFault: (fault) => faults.add(fault),
    clearFaults: () => faults.clear(),
    async completeSession(id, completeOptions = {}) {
      const method = completeOptions.paymentStatus === 'unpaid' ? 'bacs_debit' : 'card';
      await store.complete(id, method).delivered;
      return sessionHookResult(id);
    },
    async settleAsyncPayment(id, outcome) {
      await store.settle(id, outcome).delivered;
      return sessionHookResult(id);
    },
    async refundFromDashboard(id, refundOptions = {}) {
      const { refund, delivered } = store.refund({ ...refundTarget(store, id), ...refundOptions });
      await delivered;
      return refund;
    },
    async advanceClock(ms) {
      await clock.advance(ms);
      return expireDue();
    },
    expireDueSessions: expireDue,
    nowSeconds: () => clock.nowSeconds(),
    patchSession: (id, patch) => {
      store.patchSession(id, patch);
      touch();
    },
    patchPaymentIntent: (id, patch) => {
      store.patchPaymentIntent(id, patch);
      touch();
    },
    getSession,
  };
}

/**
 * What falls due on the clock: sessions expire, then subscriptions renew, their events queued
 * behind any still being sent, so every caller (sweep, hook, test clock) waits for all of them.
 * Resolves with the ids of the sessions it expired.
 */
function dueRunner(store: Store): () => Promise<string[]> {
  let renewals = Promise.resolve();
  return async () => {
    const { expired, delivered } = store.expireDue();
    await delivered;
    renewals = renewals.then(() => store.emitInOrder(store.billing.renewDue()));
    await renewals;
    return expired;
  };
}

/**
 * The test hooks a test in another process reaches over HTTP (the browser tests, whose stack runs
 * the simulator in Playwright's global setup): `POST /test-hooks/subscriptions/:id/fail-next-renewal`
 * is `failNextRenewal(id)`. Answers whether the path was a hook.
 */
function serveTestHook(store: Store, pathname: string, response: ServerResponse): boolean {
  const failRenewal = TEST_HOOK_PATH.exec(pathname);
  if (failRenewal === null) return false;
  const id = decodePathSegment(failRenewal[1] ?? '');
  const known = store.billing.subscriptions.has(id);
  if (known) store.billing.failNextRenewal(id, 1);
  response.writeHead(known ? 204 : 404, { 'Content-Type': 'text/plain; charset=utf-8' });
  response.end(known ? undefined : `No such subscription: ${id}\n`);
  return true;
}

/** Who a Dashboard refund is for: a charge, a PaymentIntent, or the payment of a session. */
function refundTarget(store: Store, id: string): { paymentIntent?: string; charge?: string } {
  if (id.startsWith('ch_')) return { charge: id };
  if (id.startsWith('pi_')) return { paymentIntent: id };
  const intent = store.findSession(id)?.session.payment_intent;
  if (typeof intent !== 'string') throw new StateError(`Checkout Session ${id} has no payment to refund.`);
  return { paymentIntent: intent };
}

type BillingHooks = Pick<
  StripeSimulator,
  'failNextRenewal' | 'getSubscription' | 'getInvoices' | 'getCustomer'
>;

/** The test hooks on Stripe Billing's objects. */
function billingHooks(store: Store, touch: () => void): BillingHooks {
  const { billing } = store;
  return {
    failNextRenewal: (id, times = 1) => {
      billing.failNextRenewal(id, times);
      touch();
    },
    getSubscription: (id) => billing.subscriptions.get(id)?.subscription,
    getCustomer: (id) => billing.customers.get(id),
    getInvoices: (filter = {}) =>
      [...billing.invoices.values()]
        .sort((a, b) => a.invoice.created - b.invoice.created || a.seq - b.seq)
        .map(({ invoice }) => invoice)
        .filter(
          (invoice) =>
            filter.subscription === undefined ||
            invoice.parent?.subscription_details?.subscription === filter.subscription,
        ),
  };
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      if (address === null || typeof address === 'string')
        reject(new Error('Simulator is not on a TCP port'));
      else resolve(address.port);
    });
  });
}

function sendJson(
  response: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: string,
): void {
  response.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-cache, no-store',
  });
  response.end(body);
}

function sendPage(response: ServerResponse, page: PageResponse): void {
  const headers = {
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Content-Security-Policy':
      "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
  };
  if (page.location !== undefined) {
    response.writeHead(page.status, { ...headers, Location: page.location });
    response.end();
    return;
  }
  const html = page.html ?? '';
  response.writeHead(page.status, {
    ...headers,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
  });
  response.end(html);
}
