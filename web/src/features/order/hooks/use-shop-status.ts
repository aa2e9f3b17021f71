import { useEffect, useState } from 'react';
import type { ShopStatus } from '../../../../../shared/shop-status';
import { useApiClient } from '../../../lib/app-context';

/**
 * The shop's mode as the merchant set it (`npm run orders -- pause`), read once when the order page
 * opens. Undefined until known or when unreadable: the page then behaves as open, and a paused
 * shop still refuses the checkout itself.
 */
export function useShopStatus(): ShopStatus | undefined {
  const api = useApiClient();
  const [status, setStatus] = useState<ShopStatus | undefined>(undefined);
  useEffect(() => {
    const controller = new AbortController();
    void api.getShopStatus(controller.signal).then((answer) => {
      if (!controller.signal.aborted) setStatus(answer);
    });
    return () => controller.abort();
  }, [api]);
  return status;
}
