import { useEffect, useState } from 'react';
import type { CheckoutStatusResult } from '../../../lib/api-contract';
import { useApiClient } from '../../../lib/app-context';

export type CheckoutStatusState = { kind: 'loading' } | CheckoutStatusResult;

/** Asks the API once what became of a Checkout Session. Remount (a new `key`) to ask again. */
export function useCheckoutStatus(sessionId: string): CheckoutStatusState {
  const api = useApiClient();
  const [state, setState] = useState<CheckoutStatusState>({ kind: 'loading' });

  useEffect(() => {
    // Aborted on unmount, so a late answer never lands on a page the customer has left.
    const controller = new AbortController();
    void api.getCheckoutStatus(sessionId, controller.signal).then((result) => {
      if (!controller.signal.aborted) setState(result);
    });
    return () => controller.abort();
  }, [api, sessionId]);

  return state;
}
