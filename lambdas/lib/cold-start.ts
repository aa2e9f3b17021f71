export interface InitOnceOptions {
  /** Load again at the first call once the last load is this old; absent, a load is kept for good. */
  maxAgeMs?: number;
  /** The clock `maxAgeMs` is measured by, in milliseconds. */
  now?: () => number;
}

/**
 * Runs `init` once per cold start and shares the result with every invocation: the one loader of
 * the lambdas, for clients and secrets, for a module loaded on demand (`() => import(…)`), and,
 * with `maxAgeMs`, for a value read again every few seconds. Concurrent calls share one load. A
 * failed init (a secret that could not be read, say) is not cached: the next call tries again
 * instead of the container failing until it is recycled.
 */
export function initOnce<T>(init: () => Promise<T>, options: InitOnceOptions = {}): () => Promise<T> {
  const { maxAgeMs = Number.POSITIVE_INFINITY, now = Date.now } = options;
  let current: { at: number; value: Promise<T> } | undefined;
  return () => {
    const at = now();
    if (current === undefined || at - current.at >= maxAgeMs) {
      const load = { at, value: init() };
      current = load;
      // Only this load is forgotten: a newer one may have replaced it while it was failing.
      load.value.catch(() => {
        if (current === load) current = undefined;
      });
    }
    return current.value;
  };
}
