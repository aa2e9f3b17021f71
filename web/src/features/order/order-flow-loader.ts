import { loadToasts } from '../../components/toast/toast-viewport';
import { loadApiRequests } from '../../lib/api-client';
import { lazyModule } from '../../lib/lazy-module';

export type OrderFlow = typeof import('./order-flow');

/**
 * The part of the order page used once an order is started (order-flow.ts). The page loads it as
 * soon as it has hydrated, so it is there before anyone can select the product; with it the
 * checkout request's code and the toasts, so the first submit waits for nothing and "Checkout
 * Failed" can still be shown when the network has gone.
 */
const orderFlow = lazyModule(() =>
  Promise.all([import('./order-flow'), loadApiRequests(), loadToasts()]).then(([flow]) => flow),
);

export const loadOrderFlow = orderFlow.load;
/** The order flow if it has loaded: a submit then runs inside the click, as the payment tab needs. */
export const loadedOrderFlow = orderFlow.current;
export const useOrderFlow = orderFlow.use;
