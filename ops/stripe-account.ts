import Stripe from 'stripe';
import { RefusedError } from '../shared/refusal';

export type StripeKeyRole = 'account' | 'checkout' | 'fulfilment';

/** How a key is named to the operator: never by its value. */
const ROLE_NAMES: Record<StripeKeyRole, string> = {
  account: 'the Stripe key setup uses (--stripe-key)',
  checkout: 'the checkout key (--checkout-key)',
  fulfilment: 'the fulfilment key (--fulfilment-key)',
};

/** A restricted-key permission as the Stripe Dashboard's key editor names it. */
type StripePermissionName = keyof typeof PROBES;

/**
 * The fulfilment key's sessions are created by request-payment and expired by pause (so Write,
 * not Read); its endpoint is read by doctor. Setup's own key is never stored.
 */
const KEY_PERMISSIONS: Record<StripeKeyRole, readonly StripePermissionName[]> = {
  account: ['Webhook Endpoints: Write'],
  checkout: ['Checkout Sessions: Write'],
  fulfilment: [
    'Checkout Sessions: Write',
    'Refunds: Write',
    'PaymentIntents: Read',
    'Charges: Read',
    'Webhook Endpoints: Read',
    // A standing order's paid invoice, its subscription, and its customer's email when the invoice has none (ADR 0058);
    // its subscription changed from its page (pause_collection, quantity) and cancelled (ADR 0059); the merchant's cancel and the shop pause (ADR 0061).
    'Invoices: Read',
    'Subscriptions: Write',
    'Customers: Read',
  ],
};

/**
 * One call per permission that changes nothing: writes are sent without their required parameters,
 * so a key that may make them gets Stripe's 400 (or 404), and one that may not the 403 checked first.
 */
const PROBES = {
  'Checkout Sessions: Write': (stripe) => stripe.rawRequest('POST', '/v1/checkout/sessions', {}),
  'Refunds: Write': (stripe) => stripe.rawRequest('POST', '/v1/refunds', {}),
  'PaymentIntents: Read': (stripe) => stripe.paymentIntents.retrieve('pi_setup_permission_probe'),
  'Charges: Read': (stripe) => stripe.charges.retrieve('ch_setup_permission_probe'),
  'Webhook Endpoints: Read': (stripe) => stripe.webhookEndpoints.list({ limit: 1 }),
  'Webhook Endpoints: Write': (stripe) => stripe.rawRequest('POST', '/v1/webhook_endpoints', {}),
  'Invoices: Read': (stripe) => stripe.invoices.retrieve('in_setup_permission_probe'),
  'Subscriptions: Write': (stripe) =>
    stripe.rawRequest('POST', '/v1/subscriptions/sub_setup_permission_probe', {}),
  'Customers: Read': (stripe) => stripe.customers.retrieve('cus_setup_permission_probe'),
} satisfies Record<string, (stripe: Stripe) => Promise<unknown>>;

const KEY_PATTERN = /^(sk|rk)_(test|live)_[A-Za-z0-9]+$/;

export interface StripeKeyFacts {
  kind: 'secret' | 'restricted';
  mode: 'test' | 'live';
}

/** The functions' keys are stored, so they must be restricted (ADR 0010); a key is never echoed. */
export function stripeKeyFacts(key: string, role: StripeKeyRole): StripeKeyFacts {
  const restrictedOnly = role !== 'account';
  const match = KEY_PATTERN.exec(key);
  if (match === null) {
    const publishable = key.startsWith('pk_');
    throw new RefusedError(
      `${capitalise(ROLE_NAMES[role])} is ${publishable ? 'a publishable key (pk_…)' : 'not a Stripe key'}: give ${restrictedOnly ? 'a restricted (rk_…)' : 'a secret (sk_…) or restricted (rk_…)'} key from Stripe's Developers → API keys.`,
    );
  }
  const kind = match[1] === 'sk' ? 'secret' : 'restricted';
  if (restrictedOnly && kind === 'secret')
    throw new RefusedError(
      `${capitalise(ROLE_NAMES[role])} is the account's secret key (sk_…): the shop's functions run with restricted keys only. Create a restricted key in Stripe's Developers → API keys with ${KEY_PERMISSIONS[role].join(', ')}, then run setup again.`,
    );
  return { kind, mode: match[2] === 'live' ? 'live' : 'test' };
}

function describeKey(facts: StripeKeyFacts): string {
  return `${facts.kind}, ${facts.mode} mode`;
}

export async function checkKeyPermissions(
  stripe: Stripe,
  role: StripeKeyRole,
  facts: StripeKeyFacts,
): Promise<void> {
  const missing: StripePermissionName[] = [];
  for (const permission of KEY_PERMISSIONS[role]) {
    try {
      await PROBES[permission](stripe);
    } catch (error) {
      if (error instanceof Stripe.errors.StripePermissionError) missing.push(permission);
      else if (error instanceof Stripe.errors.StripeAuthenticationError)
        throw new RefusedError(
          `Stripe does not accept ${ROLE_NAMES[role]} (${describeKey(facts)}): it is mistyped, expired or rolled. Copy it again from Developers → API keys.`,
        );
      else if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
    }
  }
  if (missing.length > 0)
    throw new RefusedError(
      `${capitalise(ROLE_NAMES[role])} (${describeKey(facts)}) lacks ${missing.join(', ')}. In the Stripe Dashboard (Developers → API keys), edit the key to give it ${KEY_PERMISSIONS[role].join(', ')}, then run setup again.`,
    );
}

/** The events an endpoint listens for that differ from `wanted`. */
export function eventDifference(
  enabled: readonly string[],
  wanted: readonly string[],
): { missing: string[]; extra: string[] } {
  return {
    missing: wanted.filter((event) => !enabled.includes(event)),
    extra: enabled.filter((event) => !wanted.includes(event)),
  };
}

interface RemovedEndpoint {
  id: string;
  why: string;
}

export type EndpointOutcome =
  | { action: 'created'; id: string; secret: string; removed: RemovedEndpoint[] }
  | { action: 'updated'; id: string; removed: RemovedEndpoint[]; movedFrom?: string }
  | { action: 'unchanged'; id: string; removed: RemovedEndpoint[] };

/**
 * Stripe hands out a signing secret only on create, so the endpoint whose secret is stored is
 * updated; any other at the URL is deleted (its deliveries would be refused), and so is the known
 * one of another API version (Stripe cannot change an endpoint's version).
 */
export async function ensureWebhookEndpoint(
  stripe: Stripe,
  wanted: {
    url: string;
    events: readonly Stripe.WebhookEndpointCreateParams.EnabledEvent[];
    description: string;
    knownId: string | undefined;
    apiVersion: Stripe.WebhookEndpointCreateParams.ApiVersion;
  },
): Promise<EndpointOutcome> {
  const all = await stripe.webhookEndpoints.list({ limit: 100 }).autoPagingToArray({ limit: 1000 });
  // The stored endpoint wherever it points: a stage moved to a custom domain moves its endpoint,
  // rather than leaving one at the old address that Stripe retries for three days, then disables.
  const known = all.find(
    (endpoint) => endpoint.id === wanted.knownId && endpoint.api_version === wanted.apiVersion,
  );
  const stale = all.filter(
    (endpoint) => endpoint.url === wanted.url || (endpoint.id === wanted.knownId && endpoint !== known),
  );
  const removed: RemovedEndpoint[] = [];
  for (const other of stale) {
    if (other.id === known?.id) continue;
    await stripe.webhookEndpoints.del(other.id);
    removed.push({
      id: other.id,
      why:
        other.id === wanted.knownId
          ? `it sends events of API version ${other.api_version ?? "the account's default"}, not ${wanted.apiVersion}`
          : 'its signing secret is not the stored one',
    });
  }
  if (known === undefined) {
    const created = await stripe.webhookEndpoints.create({
      url: wanted.url,
      enabled_events: [...wanted.events],
      description: wanted.description,
      // Events in the shape the code was tested with (the SDK's version), whatever the account's default.
      api_version: wanted.apiVersion,
    });
    if (created.secret === undefined)
      throw new Error(`Stripe created ${created.id} without a signing secret`);
    return { action: 'created', id: created.id, secret: created.secret, removed };
  }
  const { missing, extra } = eventDifference(known.enabled_events, wanted.events);
  const moved = known.url !== wanted.url;
  if (missing.length === 0 && extra.length === 0 && known.status === 'enabled' && !moved)
    return { action: 'unchanged', id: known.id, removed };
  await stripe.webhookEndpoints.update(known.id, {
    url: wanted.url,
    enabled_events: [...wanted.events],
    disabled: false,
  });
  return { action: 'updated', id: known.id, removed, ...(moved && { movedFrom: known.url }) };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A short timeout and one retry (the SDK retries with the same idempotency key), as the shop's own clients. */
export function operatorStripeClient(secretKey: string): Stripe {
  return new Stripe(secretKey, {
    timeout: 8_000,
    maxNetworkRetries: 1,
    appInfo: { name: 'live-aquatics-shop' },
  });
}
