import { renderNoticePage, renderPaymentPage } from './payment-page-html';
import type { SessionStore, StoredSession } from './session-store';

export interface PageResponse {
  status: number;
  html?: string;
  /** Set for a redirect (303 See Other, so the browser follows with a GET). */
  location?: string;
}

/** Stripe's test card numbers that the simulator knows. */
export const TEST_CARDS = { pays: '4242424242424242', declined: '4000000000000002' } as const;

/** The hosted payment page at `/c/pay/:id`: GET shows it, POST pays with the card number entered. */
export async function handlePaymentPage(
  store: SessionStore,
  method: string,
  id: string,
  body: string,
): Promise<PageResponse> {
  const entry = store.find(id);
  if (entry === undefined) {
    return {
      status: 404,
      html: renderNoticePage('Checkout not found', 'There is no checkout session at this address.', null),
    };
  }
  if (method === 'POST' && entry.record.status === 'complete') {
    // A double-submitted form: the first submission paid, so this one goes where that one went.
    return afterPayment(entry);
  }
  if (entry.record.status !== 'open') return unavailable(entry);
  if (method === 'GET' || method === 'HEAD') {
    return {
      status: 200,
      html: renderPaymentPage({ session: entry.record, shippingRate: entry.shippingRate }),
    };
  }
  if (method !== 'POST')
    return { status: 405, html: renderNoticePage('Method not allowed', 'Use the form.', null) };

  const cardNumber = new URLSearchParams(body).get('card_number') ?? '';
  const digits = cardNumber.replace(/[\s-]/g, '');
  const retry = (status: number, error: string): PageResponse => ({
    status,
    html: renderPaymentPage({ session: entry.record, shippingRate: entry.shippingRate, error, cardNumber }),
  });
  if (digits === '') return retry(400, 'Enter a card number.');
  if (digits === TEST_CARDS.declined) return retry(402, 'Your card was declined.');
  if (digits !== TEST_CARDS.pays) {
    return retry(
      400,
      'This card number is not accepted here. Use the test card 4242 4242 4242 4242 to pay, or 4000 0000 0000 0002 to see a decline.',
    );
  }
  const { delivered } = store.complete(id, 'paid');
  // Like Stripe, tell the shop before sending the customer back, so the success page can find the order.
  await delivered;
  return afterPayment(entry);
}

function afterPayment(entry: StoredSession): PageResponse {
  const { success_url: successUrl, id } = entry.record;
  if (successUrl !== null)
    return { status: 303, location: successUrl.replaceAll('{CHECKOUT_SESSION_ID}', id) };
  return {
    status: 200,
    html: renderNoticePage('Payment complete', 'Thank you: your payment was received.', null),
  };
}

function unavailable(entry: StoredSession): PageResponse {
  const reason =
    entry.record.status === 'expired'
      ? 'This checkout session has expired, so it can no longer be paid. Please start again from the shop.'
      : 'This checkout session has already been paid, so it can no longer be used.';
  return {
    status: 410,
    html: renderNoticePage('This checkout is no longer available', reason, entry.record.cancel_url),
  };
}
