import { useCallback, useRef, useState } from 'react';
import type { CheckoutRequest } from '../../../../../shared/checkout-request';
import { useToast } from '../../../components/toast/toast-context';
import type { CreateCheckoutResult } from '../../../lib/api-client';
import { useApiClient } from '../../../lib/app-context';
import { SELLER } from '../../policies/seller';
import { ORDER_MESSAGES } from '../order-form';
import { rememberPayment } from '../order-memory';
import { openPaymentTab } from '../payment-tab';

export type CheckoutOutcome = 'payment-page' | 'received' | 'failed' | 'busy';

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
      const tab = openPaymentTab(SELLER.shopName);
      try {
        const result = await api
          .createCheckout(request)
          .catch((): CreateCheckoutResult => ({ kind: 'failed' }));
        if (result.kind === 'payment-page') {
          rememberPayment(result.sessionId, result.url);
          tab.go(result.url);
          return 'payment-page';
        }
        if (result.kind === 'received') {
          tab.close();
          return 'received';
        }
        tab.fail();
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
