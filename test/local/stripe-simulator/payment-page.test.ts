import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StripeSimulator, startStripeSimulator } from '../../../local/stripe-simulator/server';
import { shopSessionParams, stripeFor } from './support';

let simulator: StripeSimulator;
let stripe: Stripe;

beforeAll(async () => {
  simulator = await startStripeSimulator({ port: 0 });
  stripe = stripeFor(simulator);
});
afterAll(() => simulator.close());

const pagePath = (id: string) => `${simulator.url}/c/pay/${id}`;

function pay(id: string, cardNumber: string): Promise<Response> {
  return fetch(pagePath(id), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card_number: cardNumber }),
    redirect: 'manual',
  });
}

describe('hosted payment page', () => {
  it('shows test mode, the order, delivery, email, the submit message, a labelled card input and the amount to pay', async () => {
    const session = await stripe.checkout.sessions.create(shopSessionParams());

    const response = await fetch(session.url ?? '');
    const html = await response.text();

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html).toContain('TEST MODE');
    expect(html).toContain('Daphnia Magna (250ml bottle)');
    expect(html).toContain('Qty 3 × £3.25');
    expect(html).toContain('UK delivery by Royal Mail 1st Class');
    expect(html).toContain('£4.95');
    expect(html).toContain('zoe@example.com');
    // The words by the pay button, next to each method's button (card, then Direct Debit).
    const message =
      '<p class="message">Dispatch on Monday 30 November by Royal Mail 1st Class; most orders arrive the next day. ' +
      'Paying by Bacs Direct Debit? We dispatch once your bank confirms the payment (up to 7 working days): expect dispatch on Monday 7 December. ' +
      'Freezing or extreme weather can delay dispatch. ' +
      'As live, perishable goods, Daphnia cannot be returned and the 14-day right to cancel does not apply.</p>';
    expect(html).toContain(`${message}\n<button type="submit">Pay £14.70</button>`);
    expect(html).toContain(
      `${message}\n<button type="submit" class="secondary">Confirm Direct Debit of £14.70</button>`,
    );
    expect(html).toMatch(
      /<label for="card-number">Card number<\/label>\s*<input id="card-number" name="card_number"/,
    );
    expect(html).toContain('<button type="submit">Pay £14.70</button>');
    expect(html).toContain('<a href="http://localhost:3000/">Cancel and return to the shop</a>');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  });

  it('escapes every value it shows', async () => {
    const session = await stripe.checkout.sessions.create(
      shopSessionParams({
        line_items: [
          {
            price_data: {
              currency: 'gbp',
              unit_amount: 325,
              product_data: { name: '<img src=x onerror=alert(1)>' },
            },
            quantity: 3,
          },
        ],
        custom_text: { submit: { message: '"><script>alert(1)</script>' } },
        cancel_url: 'http://localhost:3000/?a=1&b="x"',
      }),
    );

    const html = await (await fetch(pagePath(session.id))).text();

    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('href="http://localhost:3000/?a=1&amp;b=&quot;x&quot;"');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<script>');
  });

  it('declines 4000 0000 0000 0002 and keeps the session open', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());

    const response = await pay(id, '4000 0000 0000 0002');
    const html = await response.text();

    expect(response.status).toBe(402);
    expect(html).toContain('<p id="card-error" class="error" role="alert">Your card was declined.</p>');
    expect(html).toContain('aria-invalid="true"');
    expect((await stripe.checkout.sessions.retrieve(id)).status).toBe('open');
  });

  it('explains what to do with an unknown or empty card number', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());

    const unknown = await pay(id, '1234 5678 9012 3456');
    const empty = await pay(id, '   ');

    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('Use the test card 4242 4242 4242 4242 to pay');
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain('Enter a card number.');
  });

  it('pays with 4242 4242 4242 4242: 303 to success_url with the session id, session complete and paid', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());

    const response = await pay(id, '4242 4242 4242 4242');
    const session = await stripe.checkout.sessions.retrieve(id);

    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`http://localhost:3000/success?session_id=${id}`);
    expect(session).toMatchObject({ status: 'complete', payment_status: 'paid', url: null });
    expect(session.payment_intent).toMatch(/^pi_[A-Za-z0-9]+$/);
    expect(session.customer_details).toMatchObject({ email: 'zoe@example.com' });
  });

  it('accepts the card number without spaces', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());

    const response = await pay(id, '4242424242424242');

    expect(response.status).toBe(303);
  });

  it('says a paid session is no longer available, and sends a double-submitted form to success_url again', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());
    await pay(id, '4242 4242 4242 4242');

    const page = await fetch(pagePath(id));
    const secondSubmit = await pay(id, '4242 4242 4242 4242');

    expect(page.status).toBe(410);
    expect(await page.text()).toContain('This checkout is no longer available');
    expect(secondSubmit.status).toBe(303);
    expect(secondSubmit.headers.get('location')).toContain(id);
  });

  it('says an expired session is no longer available and refuses to take payment for it', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());
    await stripe.checkout.sessions.expire(id);

    const page = await fetch(pagePath(id));
    const payment = await pay(id, '4242 4242 4242 4242');

    expect(page.status).toBe(410);
    expect(await page.text()).toContain('This checkout session has expired');
    expect(payment.status).toBe(410);
    expect((await stripe.checkout.sessions.retrieve(id)).payment_status).toBe('unpaid');
  });

  it('answers 404 for an unknown session', async () => {
    const response = await fetch(pagePath('cs_test_unknown'));

    expect(response.status).toBe(404);
    expect(await response.text()).toContain('Checkout not found');
  });

  it('shows its own confirmation when the session has no success_url', async () => {
    const { id } = await stripe.checkout.sessions.create({ ...shopSessionParams(), success_url: undefined });

    const response = await pay(id, '4242 4242 4242 4242');

    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Payment complete');
  });
});
