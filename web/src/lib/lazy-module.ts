import { useSyncExternalStore } from 'react';

export interface LazyModule<T> {
  /** Starts the load once; a failed load (offline, or a new deployment took the chunk) is retried by the next call. */
  load(): Promise<T>;
  /** The module if it has loaded. */
  current(): T | undefined;
  /**
   * The module once loaded, re-rendering when it arrives. Undefined while the browser takes over
   * the HTML written at build time (as it was then), so hydration never finds a difference.
   */
  use(): T | undefined;
}

/** Code that the first render does not need, loaded on demand and then used synchronously. */
export function lazyModule<T>(importer: () => Promise<T>): LazyModule<T> {
  let loading: Promise<T> | undefined;
  let loaded: T | undefined;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  const current = () => loaded;
  return {
    load() {
      loading ??= importer().then(
        (module) => {
          loaded = module;
          for (const listener of listeners) listener();
          return module;
        },
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
    current,
    use: () => useSyncExternalStore(subscribe, current, () => undefined),
  };
}
