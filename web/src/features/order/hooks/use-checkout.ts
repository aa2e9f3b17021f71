import { useCallback, useRef, useState } from 'react';
import type { CheckoutRequest } from '../../../../../shared/checkout-request';
import { useToast } from '../../../components/toast/toast-context';
import type { CreateCheckoutResult } from '../../../lib/api-client';
import { useApiClient } from '../../../lib/app-context';
import { ORDER_MESSAGES } from '../order-form';

export type CheckoutOutcome = 'payment-page' | 'received' | 'failed' | 'busy';

/**
 * Opens an empty tab now, while the click's user activation lasts: opened after the request
 * returns, popup blockers would stop it. `noopener` would make `window.open` return null, so the
 * link back to this page is cut by hand instead.
 */
function openPendingTab(): Window | null {
  const tab = window.open('', '_blank');
  if (tab) tab.opener = null;
  return tab;
}

function showPaymentPage(tab: Window | null, url: string) {
  if (tab && !tab.closed) {
    tab.location.href = url;
  } else {
    // Blocked popup (or the customer closed the empty tab): the payment page in this tab is still a sale.
    window.location.assign(url);
  }
}

/** Sends a valid order to the API and opens the payment page in a new tab; failures: "Checkout Failed". */
export function useCheckout() {
  const api = useApiClient();
  const { toast } = useToast();
  const [submitting, setSubmitting] = useState(false);
  // The disabled button stops a second click once rendered; this stops one that lands before that.
  const inFlight = useRef(false);

  /** Must be called synchronously from the submit handler, for the new tab to be allowed. */
  const checkout = useCallback(
    async (request: CheckoutRequest): Promise<CheckoutOutcome> => {
      if (inFlight.current) return 'busy';
      inFlight.current = true;
      setSubmitting(true);
      const tab = openPendingTab();
      try {
        const result = await api
          .createCheckout(request)
          .catch((): CreateCheckoutResult => ({ kind: 'failed' }));
        if (result.kind === 'payment-page') {
          showPaymentPage(tab, result.url);
          return 'payment-page';
        }
        tab?.close();
        if (result.kind === 'received') return 'received';
        toast(ORDER_MESSAGES.checkoutFailed);
        return 'failed';
      } finally {
        inFlight.current = false;
        setSubmitting(false);
      }
    },
    [api, toast],
  );

  return { checkout, submitting };
}
