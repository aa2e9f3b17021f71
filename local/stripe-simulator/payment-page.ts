import { renderNoticePage, renderPaymentPage, renderProcessingPage } from './payment-page-html';
import { StateError, type Store, type StoredSession } from './store';

export interface PageResponse {
  status: number;
  html?: string;
  /** Set for a redirect (303 See Other, so the browser follows with a GET). */
  location?: string;
}

export interface PageContext {
  store: Store;
  /** Settles a delayed payment after the configured delay, as the bank would days later. */
  settleLater: (id: string, outcome: 'succeeded' | 'failed') => void;
}

/** Stripe's test card numbers that the simulator knows. */
const TEST_CARDS = { pays: '4242424242424242', declined: '4000000000000002' } as const;

/** What the customer chose for a Bacs Direct Debit, after Stripe's own test bank accounts. */
const DEBIT_OUTCOMES = ['collected', 'collected_later', 'fails_later'] as const;

/**
 * The hosted payment page at `/c/pay/:id`: GET shows it; POST pays by card (the card number
 * entered) or by Bacs Direct Debit (with the outcome chosen). `/c/pay/:id/settle` settles a
 * Direct Debit that is still processing, at once.
 */
export async function handlePaymentPage(
  context: PageContext,
  method: string,
  id: string,
  body: string,
  action: 'pay' | 'settle',
): Promise<PageResponse> {
  const entry = context.store.findSession(id);
  if (entry === undefined) {
    return {
      status: 404,
      html: renderNoticePage('Checkout not found', 'There is no checkout session at this address.', null),
    };
  }
  const form = new URLSearchParams(body);
  if (action === 'settle') return settleNow(context, entry, method, form.get('outcome'));
  if (method === 'POST' && entry.session.status === 'complete') {
    // A double-submitted form: the first submission paid, so this one goes where that one went.
    return afterPayment(entry);
  }
  if (entry.session.status === 'complete' && isProcessing(context, entry)) {
    return { status: 200, html: renderProcessingPage(entry.session) };
  }
  if (entry.session.status !== 'open') return unavailable(entry);
  if (method === 'GET' || method === 'HEAD') {
    return {
      status: 200,
      html: renderPaymentPage({ session: entry.session, shippingRate: entry.shippingRate }),
    };
  }
  if (method !== 'POST')
    return { status: 405, html: renderNoticePage('Method not allowed', 'Use the form.', null) };

  if (form.get('method') === 'bacs_debit' && entry.session.payment_method_types.includes('bacs_debit')) {
    const outcome = DEBIT_OUTCOMES.find((candidate) => candidate === form.get('outcome')) ?? 'collected';
    // Like Stripe, tell the shop before sending the customer back, so the success page can find the order.
    await context.store.complete(id, 'bacs_debit').delivered;
    if (outcome === 'collected') await context.store.settle(id, 'succeeded').delivered;
    else context.settleLater(id, outcome === 'collected_later' ? 'succeeded' : 'failed');
    return afterPayment(entry);
  }

  const cardNumber = form.get('card_number') ?? '';
  const digits = cardNumber.replace(/[\s-]/g, '');
  const retry = (status: number, error: string): PageResponse => ({
    status,
    html: renderPaymentPage({ session: entry.session, shippingRate: entry.shippingRate, error, cardNumber }),
  });
  if (digits === '') return retry(400, 'Enter a card number.');
  if (digits === TEST_CARDS.declined) return retry(402, 'Your card was declined.');
  if (digits !== TEST_CARDS.pays) {
    return retry(
      400,
      'This card number is not accepted here. Use the test card 4242 4242 4242 4242 to pay, or 4000 0000 0000 0002 to see a decline.',
    );
  }
  await context.store.complete(id, 'card').delivered;
  return afterPayment(entry);
}

async function settleNow(
  context: PageContext,
  entry: StoredSession,
  method: string,
  outcome: string | null,
): Promise<PageResponse> {
  if (method !== 'POST' || (outcome !== 'succeeded' && outcome !== 'failed')) {
    return {
      status: 400,
      html: renderNoticePage('Nothing to settle', 'Use the buttons on the processing page.', null),
    };
  }
  try {
    await context.store.settle(entry.session.id, outcome).delivered;
  } catch (error) {
    if (!(error instanceof StateError)) throw error;
    return { status: 409, html: renderNoticePage('Nothing to settle', error.message, null) };
  }
  return {
    status: 200,
    html: renderNoticePage(
      outcome === 'succeeded' ? 'Direct Debit collected' : 'Direct Debit failed',
      outcome === 'succeeded'
        ? 'The bank collected the payment; the shop has been told (async_payment_succeeded).'
        : 'The bank could not collect the payment; the shop has been told (async_payment_failed).',
      null,
    ),
  };
}

function isProcessing(context: PageContext, entry: StoredSession): boolean {
  const { payment_intent: intent } = entry.session;
  return typeof intent === 'string' && context.store.intent(intent)?.status === 'processing';
}

function afterPayment(entry: StoredSession): PageResponse {
  const { success_url: successUrl, id } = entry.session;
  if (successUrl !== null)
    return { status: 303, location: successUrl.replaceAll('{CHECKOUT_SESSION_ID}', id) };
  return {
    status: 200,
    html: renderNoticePage('Payment complete', 'Thank you: your payment was received.', null),
  };
}

function unavailable(entry: StoredSession): PageResponse {
  const reason =
    entry.session.status === 'expired'
      ? 'This checkout session has expired, so it can no longer be paid. Please start again from the shop.'
      : 'This checkout session has already been paid, so it can no longer be used.';
  return {
    status: 410,
    html: renderNoticePage('This checkout is no longer available', reason, entry.session.cancel_url),
  };
}
