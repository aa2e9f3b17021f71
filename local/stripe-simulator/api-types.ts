import type Stripe from 'stripe';
import type { SimulatorClock } from './clock';
import type { FaultInjector } from './faults';
import type { FormObject } from './form-body';
import type { IdempotencyStore } from './idempotency';
import type { RestrictedKeys, StripePermission } from './permissions';
import type { Store } from './store';
import type { WebhookEndpointStore } from './webhook-endpoints';

/** What every endpoint's handler may use (api.ts answers the core endpoints, billing-api.ts Billing's). */
export interface ApiContext {
  store: Store;
  webhookEndpoints: WebhookEndpointStore;
  /** Restricted keys with fewer permissions than all; see permissions.ts. */
  restrictedKeys: RestrictedKeys;
  /** The account's capabilities as `GET /v1/account` answers them; a test may replace them. */
  account: { capabilities: Stripe.Account.Capabilities };
  clock: SimulatorClock;
  faults: FaultInjector;
  idempotency: IdempotencyStore;
  /** The hosted payment page of a session. */
  payPageUrl: (id: string) => string;
  /** A delay the simulator can cut short when it closes. */
  sleep: (ms: number) => Promise<void>;
  log: (line: string) => void;
  /** Moves the simulator's clock forward and runs what falls due (a test clock's advance). */
  advanceClock: (ms: number) => Promise<void>;
}

export type RouteHandler = (context: ApiContext, params: FormObject, pathId: string) => unknown;

/** One endpoint: its method and path, the restricted-key permission it needs, and its handler. */
export interface ApiRoute {
  method: 'GET' | 'POST' | 'DELETE';
  pattern: RegExp;
  permission: StripePermission;
  handle: RouteHandler;
}
