import { useEffect, useState } from 'react';
import type { ApiClient } from './api-client';
import { useApiClient } from './app-context';

/**
 * Asks the API once, for `key`, what `ask` fetches: `{ kind: 'loading' }` until it answers. Remount
 * (a new `key` prop) to ask again. `ask` is a module-level function, so it never asks twice.
 */
export function useApiAnswer<T>(
  key: string,
  ask: (api: ApiClient, key: string, signal: AbortSignal) => Promise<T>,
): { kind: 'loading' } | T {
  const api = useApiClient();
  const [state, setState] = useState<{ kind: 'loading' } | T>({ kind: 'loading' });

  useEffect(() => {
    // Aborted on unmount, so a late answer never lands on a page the customer has left.
    const controller = new AbortController();
    void ask(api, key, controller.signal).then((result) => {
      if (!controller.signal.aborted) setState(result);
    });
    return () => controller.abort();
  }, [api, key, ask]);

  return state;
}
