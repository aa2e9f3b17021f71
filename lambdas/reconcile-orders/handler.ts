import { loadFulfilmentRuntime } from '../fulfilment/dependencies';
import type { FulfilmentDeps } from '../fulfilment/fulfil-checkout';
import { initOnce } from '../lib/cold-start';
import { type ReconcileSummary, reconcileOrders } from './reconcile-orders';

/**
 * The scheduled (EventBridge) entry point. The event carries nothing we need; the run looks at
 * Stripe and the table. An incomplete run throws, so the function's Errors metric shows it.
 */
export function createReconcileHandler(
  deps: FulfilmentDeps | (() => Promise<FulfilmentDeps>),
): () => Promise<ReconcileSummary> {
  const getDeps = typeof deps === 'function' ? deps : async () => deps;
  return async () => reconcileOrders(await getDeps());
}

const loadDeps = initOnce(async () => (await loadFulfilmentRuntime(process.env)).deps);

export const handler = createReconcileHandler(loadDeps);
