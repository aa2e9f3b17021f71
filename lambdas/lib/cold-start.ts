/**
 * Runs `init` once per cold start and shares the result with every invocation. A failed init
 * (a secret that could not be read, say) is not cached: the next invocation tries again
 * instead of the container failing until it is recycled.
 */
export function initOnce<T>(init: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= init().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
