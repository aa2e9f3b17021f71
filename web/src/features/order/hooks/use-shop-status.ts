import { useEffect, useState } from 'react';
import type { ShopStatus } from '../../../../../shared/shop-status';
import { useApiClient } from '../../../lib/app-context';

/**
 * The shop's mode as the merchant set it (`npm run orders -- pause`), read when the order page
 * opens and again whenever its tab comes back into view, so a page left open while the merchant
 * paused or resumed catches up without a reload. Undefined until known or when never readable:
 * the page then behaves as open, and a paused shop still refuses the checkout itself. A later read
 * that fails keeps the last answer.
 */
export function useShopStatus(): ShopStatus | undefined {
  const api = useApiClient();
  const [status, setStatus] = useState<ShopStatus | undefined>(undefined);
  useEffect(() => {
    const controller = new AbortController();
    // Focus and visibilitychange often come together: one read at a time is enough.
    let reading = false;
    const read = () => {
      if (reading || document.visibilityState === 'hidden') return;
      reading = true;
      void api.getShopStatus(controller.signal).then((answer) => {
        reading = false;
        if (answer && !controller.signal.aborted) setStatus(answer);
      });
    };
    read();
    document.addEventListener('visibilitychange', read);
    window.addEventListener('focus', read);
    return () => {
      controller.abort();
      document.removeEventListener('visibilitychange', read);
      window.removeEventListener('focus', read);
    };
  }, [api]);
  return status;
}
