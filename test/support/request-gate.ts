import { deferred } from './deferred';

/**
 * A `hold` for a Stripe simulator fault: `arrived` settles when a matching request reaches the
 * simulator, which keeps it until `release`. Tests order concurrent work by that arrival, not by a
 * guessed head start that a loaded machine overruns.
 */
export function requestGate() {
  const arrived = deferred<void>();
  const released = deferred<void>();
  return {
    arrived: arrived.promise,
    release: () => released.resolve(),
    hold: () => {
      arrived.resolve();
      return released.promise;
    },
  };
}
