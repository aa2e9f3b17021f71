import { useEffect, useState } from 'react';
import { useApiClient } from '../../lib/app-context';
import { getOrderPage, type OrderPageResult } from './order-page-api';

export type OrderPageState = { kind: 'loading' } | OrderPageResult;

/** Asks the API once for the order a token opens. Remount (a new `key`) to ask again. */
export function useOrderPage(token: string): OrderPageState {
  const api = useApiClient();
  const [state, setState] = useState<OrderPageState>({ kind: 'loading' });

  useEffect(() => {
    // Aborted on unmount, so a late answer never lands on a page the customer has left.
    const controller = new AbortController();
    void getOrderPage(api.request, token, controller.signal).then((result) => {
      if (!controller.signal.aborted) setState(result);
    });
    return () => controller.abort();
  }, [api, token]);

  return state;
}
