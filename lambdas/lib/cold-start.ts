export interface InitOnceOptions {
  /** Load again at the first call once the last load is this old; absent, a load is kept for good. */
  maxAgeMs?: number;
  /** The clock `maxAgeMs` is measured by, in milliseconds. */
  now?: () => number;
}

/**
 * The lambdas' one loader: `init` once per cold start (or every `maxAgeMs`), shared by concurrent calls. A
 * failed init is not cached, so the next call retries instead of the container failing until it is recycled.
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
