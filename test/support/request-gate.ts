/**
 * A `hold` for a Stripe simulator fault: `arrived` settles when a matching request reaches the
 * simulator, which keeps it until `release`. Tests order concurrent work by that arrival, not by a
 * guessed head start that a loaded machine overruns.
 */
export function requestGate() {
  let markArrived: () => void = () => {};
  const arrived = new Promise<void>((resolve) => {
    markArrived = resolve;
  });
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    arrived,
    release,
    hold: () => {
      markArrived();
      return released;
    },
  };
}
