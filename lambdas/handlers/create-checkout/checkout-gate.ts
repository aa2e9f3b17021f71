import type { CheckoutRequest } from '../../../shared/checkout-request';
import type { CapacitySettings } from '../../domain/storage/capacity-settings';
import type { CapacityStore } from '../../domain/storage/capacity-store';
import {
  type ClientHoldItems,
  capacityStoreFromTable,
  clientHoldItemsFromTable,
} from '../../domain/storage/capacity-table';
import { type CheckoutStore, checkoutStoreFromTable } from '../../domain/storage/checkout-store';
import { readShopSettings } from '../../domain/storage/settings-store';
import { type CheckoutSettings, createCheckoutSettings } from '../../domain/storage/shop-settings';
import { ordersTable } from '../../lib/aws';
import { initOnce } from '../../lib/cold-start';
import type { CheckoutEnv } from '../../lib/config';

type RecordOrderRequest = typeof import('./request-writer').recordOrderRequest;
export type RecordedRequest = Awaited<ReturnType<RecordOrderRequest>>;

/** What create-checkout needs for the shop's settings and order requests. */
export interface CheckoutGateDeps {
  /** The settings: cached for a few seconds, read afresh when a transaction finds them changed (createCheckoutSettings). */
  settings: CheckoutSettings;
  /** The dispatch days' bottles, reserved before a session is made. */
  capacity: CapacityStore;
  /** Each client's open holds, of which it may have only a few (client-holds.ts). */
  clientHolds: ClientHoldItems;
  /** The reservation's transaction and the session's record (checkout-store.ts). */
  checkouts: CheckoutStore;
  /**
   * Requests mode (recordOrderRequest): `client` is the sender's IP the notice limits count; `capacity` the
   * days' limits, as the request's bottles are held as a checkout's.
   */
  recordRequest: (
    input: CheckoutRequest,
    options: {
      idempotencyKey: string | undefined;
      cutoffHours: number;
      client: string;
      viewer: string | undefined;
      capacity: CapacitySettings | undefined;
    },
  ) => Promise<RecordedRequest>;
}

/** The page's text when the merchant paused without a message of their own (never expected). */
export const DEFAULT_PAUSED_MESSAGE = 'We are not taking orders at the moment. Please come back soon.';

/**
 * Built once per cold start on one document client (`now`: the clock the settings' age is measured by); SES
 * and the request actions load on the first request in requests mode, so a paid checkout's cold start never
 * pays for them. A failed load is retried next request.
 */
export function createCheckoutGate(config: CheckoutEnv, now: () => number = Date.now): CheckoutGateDeps {
  const table = ordersTable(config);
  const loadWriter = initOnce(() =>
    import('./request-writer').then((module) => ({
      record: module.recordOrderRequest,
      deps: module.createRequestDeps(config, table),
    })),
  );
  return {
    settings: createCheckoutSettings(
      (consistent) => readShopSettings(table, consistent),
      config.SETTINGS_MAX_AGE_MS,
      now,
    ),
    capacity: capacityStoreFromTable(table),
    clientHolds: clientHoldItemsFromTable(table),
    checkouts: checkoutStoreFromTable(table),
    recordRequest: async (input, options) => {
      const { record, deps } = await loadWriter();
      return record(input, options, deps);
    },
  };
}
