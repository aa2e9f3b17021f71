import { useSyncExternalStore } from 'react';
import { loadApiRequests } from '../../lib/api-client';

export type OrderFlow = typeof import('./order-flow');

let loading: Promise<OrderFlow> | undefined;
let loaded: OrderFlow | undefined;
const listeners = new Set<() => void>();

/**
 * Loads the part of the order page used once an order is started (order-flow.ts), once. The page
 * starts it as soon as it has hydrated, so it is there before anyone can select the product; a
 * failed load (offline, or a new deployment took the chunk) is retried by the next call.
 */
export function loadOrderFlow(): Promise<OrderFlow> {
  // With the checkout request's code, so the first submit does not wait for it.
  loading ??= Promise.all([import('./order-flow'), loadApiRequests()]).then(
    ([flow]) => {
      loaded = flow;
      for (const listener of listeners) listener();
      return flow;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The order flow if it has loaded: a submit then runs inside the click, as the payment tab needs. */
export function loadedOrderFlow(): OrderFlow | undefined {
  return loaded;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/**
 * The order flow once loaded, re-rendering when it arrives. Undefined while the browser takes
 * over the HTML written at build time (as it was then), so hydration never finds a difference.
 */
export function useOrderFlow(): OrderFlow | undefined {
  return useSyncExternalStore(subscribe, loadedOrderFlow, () => undefined);
}
