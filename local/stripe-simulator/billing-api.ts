/**
 * Stripe Billing's endpoints the simulator answers (standing orders, issue 50):
 * - `GET /v1/subscriptions/:id`, `POST /v1/subscriptions/:id` (pause_collection, '' to clear;
 *   cancel_at_period_end; metadata; items[i][id] + items[i][quantity] with proration_behavior=none),
 *   `DELETE /v1/subscriptions/:id`, `GET /v1/subscriptions` (customer, status, created, limit,
 *   starting_after; without `status`, canceled ones are left out, as at Stripe);
 * - `GET /v1/invoices` (customer, subscription, status, created, limit, starting_after),
 *   `GET /v1/invoices/:id` (expand customer, parent.subscription_details.subscription, payments);
 * - `POST /v1/customers`, `GET /v1/customers/:id`;
 * - `POST /v1/test_helpers/test_clocks`, `GET …/:id`, `POST …/:id/advance` (`frozen_time`): the
 *   simulator has one clock, so advancing a test clock moves it to `frozen_time` (never back) and
 *   runs what falls due (renewals, expiries) before answering.
 * Lists are newest first. An invoice's `payments` is left out unless expanded, as Stripe does.
 */
import type Stripe from 'stripe';
import type { ApiContext, ApiRoute } from './api-types';
import { cancelSubscriptionInvoiceCheck, updateSubscription } from './billing';
import { buildTestClock } from './billing-objects';
import { invalidRequest, resourceMissing } from './errors';
import type { FormObject } from './form-body';
import { buildList } from './objects';
import { type CreatedFilter, parseParams, retrieveSchema } from './params';
import {
  advanceTestClockSchema,
  cancelSubscriptionSchema,
  createCustomerSchema,
  createTestClockSchema,
  INVOICE_EXPANSIONS,
  listInvoicesSchema,
  listSubscriptionsSchema,
  SUBSCRIPTION_EXPANSIONS,
  updateSubscriptionSchema,
} from './subscription-params';

const SUBSCRIPTION = /^\/v1\/subscriptions\/([^/]+)$/;
const INVOICE = /^\/v1\/invoices\/([^/]+)$/;
const TEST_CLOCKS = /^\/v1\/test_helpers\/test_clocks$/;
const TEST_CLOCK = /^\/v1\/test_helpers\/test_clocks\/([^/]+)$/;

export const BILLING_ROUTES: ApiRoute[] = [
  { method: 'GET', pattern: SUBSCRIPTION, permission: 'subscription_read', handle: retrieveSubscription },
  {
    method: 'POST',
    pattern: SUBSCRIPTION,
    permission: 'subscription_write',
    handle: updateSubscriptionRoute,
  },
  { method: 'DELETE', pattern: SUBSCRIPTION, permission: 'subscription_write', handle: cancelSubscription },
  {
    method: 'GET',
    pattern: /^\/v1\/subscriptions$/,
    permission: 'subscription_read',
    handle: listSubscriptions,
  },
  { method: 'GET', pattern: /^\/v1\/invoices$/, permission: 'invoice_read', handle: listInvoices },
  { method: 'GET', pattern: INVOICE, permission: 'invoice_read', handle: retrieveInvoice },
  { method: 'POST', pattern: /^\/v1\/customers$/, permission: 'customer_write', handle: createCustomer },
  {
    method: 'GET',
    pattern: /^\/v1\/customers\/([^/]+)$/,
    permission: 'customer_read',
    handle: (context, form, id) => {
      parseParams(retrieveSchema([]), form);
      return context.store.billing.requireCustomer(id);
    },
  },
  { method: 'POST', pattern: TEST_CLOCKS, permission: 'test_clock_write', handle: createTestClock },
  {
    method: 'GET',
    pattern: TEST_CLOCK,
    permission: 'test_clock_read',
    handle: (context, form, id) => {
      parseParams(retrieveSchema([]), form);
      return requireTestClock(context, id);
    },
  },
  {
    method: 'POST',
    pattern: /^\/v1\/test_helpers\/test_clocks\/([^/]+)\/advance$/,
    permission: 'test_clock_write',
    handle: advanceTestClock,
  },
];

function retrieveSubscription(context: ApiContext, form: FormObject, id: string): Stripe.Subscription {
  const { expand } = parseParams(retrieveSchema(SUBSCRIPTION_EXPANSIONS), form);
  return subscriptionView(context, context.store.billing.requireSubscription(id).subscription, expand);
}

async function updateSubscriptionRoute(
  context: ApiContext,
  form: FormObject,
  id: string,
): Promise<Stripe.Subscription> {
  const params = parseParams(updateSubscriptionSchema, form);
  const entry = context.store.billing.requireSubscription(id);
  const events = updateSubscription(entry, params, context.clock.nowSeconds());
  await context.store.emitInOrder(events);
  return subscriptionView(context, entry.subscription, params.expand);
}

async function cancelSubscription(
  context: ApiContext,
  form: FormObject,
  id: string,
): Promise<Stripe.Subscription> {
  const params = parseParams(cancelSubscriptionSchema, form);
  cancelSubscriptionInvoiceCheck(params);
  const { subscription, events } = context.store.billing.cancel(id);
  await context.store.emitInOrder(events);
  return subscriptionView(context, subscription, params.expand);
}

function listSubscriptions(context: ApiContext, form: FormObject): Stripe.ApiList<Stripe.Subscription> {
  const params = parseParams(listSubscriptionsSchema, form);
  const { status } = params;
  return listNewestFirst(
    { stored: context.store.billing.subscriptions, objectOf: (entry) => entry.subscription },
    { ...params, kind: 'subscription', url: '/v1/subscriptions' },
    (subscription) =>
      status === 'all' ||
      (status === undefined && subscription.status !== 'canceled') ||
      (status === 'ended' && subscription.status === 'canceled') ||
      subscription.status === status,
    (subscription, paths) => subscriptionView(context, subscription, paths),
  );
}

function listInvoices(context: ApiContext, form: FormObject): Stripe.ApiList<Stripe.Invoice> {
  const params = parseParams(listInvoicesSchema, form);
  const { subscription, status } = params;
  return listNewestFirst(
    { stored: context.store.billing.invoices, objectOf: (entry) => entry.invoice },
    { ...params, kind: 'invoice', url: '/v1/invoices' },
    (invoice) =>
      (subscription === undefined || invoice.parent?.subscription_details?.subscription === subscription) &&
      (status === undefined || invoice.status === status),
    (invoice, paths) => invoiceView(context, invoice, paths),
  );
}

function retrieveInvoice(context: ApiContext, form: FormObject, id: string): Stripe.Invoice {
  const { expand } = parseParams(retrieveSchema(INVOICE_EXPANSIONS), form);
  return invoiceView(context, context.store.billing.requireInvoice(id), expand);
}

function createCustomer(context: ApiContext, form: FormObject): Stripe.Customer {
  const {
    email,
    name,
    description,
    metadata,
    test_clock: testClock,
  } = parseParams(createCustomerSchema, form);
  if (testClock !== undefined) requireTestClock(context, testClock);
  const customer = context.store.billing.addCustomer({ email: email ?? null, name: name ?? null, metadata });
  const kept = { ...customer, description: description ?? null, test_clock: testClock ?? null };
  context.store.billing.customers.set(kept.id, kept);
  return kept;
}

function createTestClock(context: ApiContext, form: FormObject): Stripe.TestHelpers.TestClock {
  const { frozen_time: frozenTime, name } = parseParams(createTestClockSchema, form);
  const clock = buildTestClock(frozenTime, name ?? null, context.clock.nowSeconds());
  context.store.billing.testClocks.set(clock.id, clock);
  return clock;
}

async function advanceTestClock(
  context: ApiContext,
  form: FormObject,
  id: string,
): Promise<Stripe.TestHelpers.TestClock> {
  const { frozen_time: frozenTime } = parseParams(advanceTestClockSchema, form);
  const clock = requireTestClock(context, id);
  if (frozenTime <= clock.frozen_time) {
    throw invalidRequest('The frozen_time must be after the test clock\u2019s current frozen_time.', {
      param: 'frozen_time',
    });
  }
  await context.advanceClock(Math.max(0, frozenTime * 1000 - context.clock.nowMs()));
  const advanced = { ...clock, frozen_time: frozenTime, status: 'ready' };
  context.store.billing.testClocks.set(id, advanced);
  return advanced;
}

function requireTestClock(context: ApiContext, id: string): Stripe.TestHelpers.TestClock {
  const clock = context.store.billing.testClocks.get(id);
  if (clock === undefined) throw resourceMissing('test_helpers.test_clock', id, 'test_clock');
  return clock;
}

function subscriptionView(
  context: ApiContext,
  subscription: Stripe.Subscription,
  expand: string[],
): Stripe.Subscription {
  const { billing } = context.store;
  const { customer, latest_invoice: latest } = subscription;
  return {
    ...subscription,
    customer:
      expand.includes('customer') && typeof customer === 'string'
        ? (billing.customers.get(customer) ?? customer)
        : customer,
    latest_invoice:
      expand.includes('latest_invoice') && typeof latest === 'string'
        ? invoiceView(context, billing.requireInvoice(latest), [])
        : latest,
  };
}

/** An invoice as the API shows it: `payments` only when expanded, like Stripe's includable fields. */
export function invoiceView(context: ApiContext, invoice: Stripe.Invoice, expand: string[]): Stripe.Invoice {
  const { billing } = context.store;
  const { payments, ...view } = invoice;
  const { customer, parent } = invoice;
  const subscription = parent?.subscription_details?.subscription;
  return {
    ...view,
    ...(expand.includes('payments') && payments !== undefined && { payments }),
    customer:
      expand.includes('customer') && typeof customer === 'string'
        ? (billing.customers.get(customer) ?? customer)
        : customer,
    parent:
      expand.includes('parent.subscription_details.subscription') &&
      parent?.subscription_details &&
      typeof subscription === 'string'
        ? {
            ...parent,
            subscription_details: {
              ...parent.subscription_details,
              subscription: billing.requireSubscription(subscription).subscription,
            },
          }
        : parent,
  };
}

/** `created` within the filter's bounds. */
function createdMatches(created: number, filter: CreatedFilter): boolean {
  const { gt, gte, lt, lte } = filter ?? {};
  return (
    (gt === undefined || created > gt) &&
    (gte === undefined || created >= gte) &&
    (lt === undefined || created < lt) &&
    (lte === undefined || created <= lte)
  );
}

/**
 * A list's page: the stored objects of the asked customer and creation range that `keep` keeps,
 * newest first after the `starting_after` cursor (looked up among all of them, not only those
 * kept), each shown with the list's `data.` expansions.
 */
function listNewestFirst<E extends { seq: number }, T extends { created: number; customer: unknown }, V>(
  store: { stored: ReadonlyMap<string, E>; objectOf: (entry: E) => T },
  list: {
    customer?: string | undefined;
    created?: Parameters<typeof createdMatches>[1];
    limit?: number | undefined;
    starting_after?: string | undefined;
    expand: string[];
    kind: string;
    url: string;
  },
  keep: (object: T) => boolean,
  view: (object: T, paths: string[]) => V,
): Stripe.ApiList<V> {
  const all = [...store.stored.values()].map((entry) => ({ seq: entry.seq, object: store.objectOf(entry) }));
  const entries = all.filter(
    ({ object }) =>
      keep(object) &&
      (list.customer === undefined || object.customer === list.customer) &&
      createdMatches(object.created, list.created),
  );
  const cursor = list.starting_after;
  const stored = cursor === undefined ? undefined : store.stored.get(cursor);
  const after = stored && { seq: stored.seq, object: store.objectOf(stored) };
  const paths = list.expand.map((path) => path.replace(/^data\./, ''));
  const page = newestFirstPage(entries, { id: cursor, kind: list.kind, entry: after }, list.limit ?? 10);
  return buildList(
    page.data.map((object) => view(object, paths)),
    page.hasMore,
    list.url,
  );
}

/**
 * Newest first by `created`, then creation order; the page after the cursor, even if it no longer
 * matches. A cursor naming no object of its kind is refused, as Stripe refuses it.
 */
function newestFirstPage<T extends { created: number }>(
  entries: Array<{ seq: number; object: T }>,
  starting: { id: string | undefined; kind: string; entry: { seq: number; object: T } | undefined },
  limit: number,
): { data: T[]; hasMore: boolean } {
  if (starting.id !== undefined && starting.entry === undefined) {
    throw resourceMissing(starting.kind, starting.id, 'starting_after', 400);
  }
  const cursor = starting.entry;
  const sorted = [...entries].sort((a, b) => b.object.created - a.object.created || b.seq - a.seq);
  const after =
    cursor === undefined
      ? sorted
      : sorted.filter(
          ({ seq, object }) =>
            object.created < cursor.object.created ||
            (object.created === cursor.object.created && seq < cursor.seq),
        );
  return { data: after.slice(0, limit).map(({ object }) => object), hasMore: after.length > limit };
}
