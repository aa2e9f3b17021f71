import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferred, jsonResponse, requestOf, stubFetch } from '../../helpers/fake-browser';
import { renderApp } from '../../helpers/render-app';

const SESSION_ID = 'cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqR';
const REFERENCE = 'i9J0kLmNoPqR';

const ORDER_PAGE = '/order/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdEfGhIjKlMnOp';

function statusAnswer(
  status: 'paid' | 'in_review' | 'unpaid' | 'failed' | 'open' | 'expired',
  extra: { orderPage?: string } = {},
) {
  return jsonResponse({
    status,
    reference: REFERENCE,
    bottles: 3,
    total: 1470,
    dispatchDate: '2026-11-23',
    ...extra,
  });
}

describe('success page', () => {
  it('redirects to the order page when session_id is missing', async () => {
    const fetchMock = stubFetch();
    const { router } = renderApp('/success');

    expect(await screen.findByRole('heading', { name: 'Live Aquatics Order' })).toBeInTheDocument();
    expect(router.location.pathname).toBe('/');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('redirects when session_id is empty', async () => {
    stubFetch();
    const { router } = renderApp('/success?session_id=');

    expect(await screen.findByRole('heading', { name: 'Live Aquatics Order' })).toBeInTheDocument();
    expect(router.location.pathname).toBe('/');
  });

  it('shows the shell at once, before the status answer: the heading, the wait and the reference from the address', async () => {
    const answer = deferred<Response>();
    stubFetch(answer.promise);
    renderApp(`/success?session_id=${SESSION_ID}`);

    expect(screen.getByRole('heading', { level: 1, name: 'Checking your payment...' })).toBeInTheDocument();
    // A live region of its own, so the wait is announced.
    expect(screen.getByRole('status')).toHaveTextContent(
      'We are confirming your payment with our payment provider. This usually takes a moment, so please keep this page open: your order details will appear here.',
    );
    expect(screen.getByText('Order Reference').nextElementSibling).toHaveTextContent(REFERENCE);
    expect(screen.queryByText(/Payment Successful!/)).not.toBeInTheDocument();

    answer.resolve(statusAnswer('paid'));
    expect(await screen.findByRole('heading', { name: /Payment Successful!/ })).toBeInTheDocument();
    expect(screen.queryByText('Checking your payment...')).not.toBeInTheDocument();
  });

  it('confirms a paid order with the reference, the dispatch date and a way home', async () => {
    const fetchMock = stubFetch(statusAnswer('paid'));
    const { user, router } = renderApp(`/success?session_id=${SESSION_ID}`);

    const heading = await screen.findByRole('heading', {
      level: 1,
      name: 'Payment Successful! Your order has been confirmed',
    });
    // Focus moves in an effect after the heading renders: wait on that state, not on time.
    await waitFor(() => expect(heading).toHaveFocus());
    expect(requestOf(fetchMock).url).toBe(
      `https://api.shop.test/functions/v1/checkout-status?session_id=${SESSION_ID}`,
    );
    expect(requestOf(fetchMock).method).toBe('GET');
    expect(
      screen.getByText(/email confirmation .* with your order details and delivery information/),
    ).toBeInTheDocument();
    expect(screen.getByText('Order Reference').nextElementSibling).toHaveTextContent(REFERENCE);
    expect(REFERENCE).toBe(SESSION_ID.slice(-12));
    expect(screen.getByText('Dispatch date').nextElementSibling).toHaveTextContent('Monday 23 November');
    expect(screen.getByText('Total paid').nextElementSibling).toHaveTextContent('£14.70');
    expect(screen.getByText('Order').nextElementSibling).toHaveTextContent('3 × 250ml Daphnia Magna');

    const home = screen.getByRole('link', { name: 'Return Home' });
    expect(home).toHaveAttribute('href', '/');
    await user.click(home);
    expect(router.location.pathname).toBe('/');
    expect(await screen.findByRole('heading', { name: 'Live Aquatics Order' })).toBeInTheDocument();
  });

  it('a payment the bank is still processing (Direct Debit): the order is placed and waits, with its reference and dispatch date, and no second order is suggested', async () => {
    stubFetch(statusAnswer('unpaid'));
    renderApp(`/success?session_id=${SESSION_ID}`);

    const heading = await screen.findByRole('heading', {
      level: 1,
      name: 'Your order is placed We are waiting for your bank to confirm the payment',
    });
    await waitFor(() => expect(heading).toHaveFocus());
    const view = heading.closest('section');
    if (!view) throw new Error('the view has no section');
    expect(view).toHaveTextContent(
      'Your bank is processing your payment, which can take a few working days. You do not need to do anything or order again: we will email you as soon as the payment clears, or if your bank turns it down.',
    );
    expect(within(view).getByText('Order Reference').nextElementSibling).toHaveTextContent(REFERENCE);
    expect(within(view).getByText('Expected dispatch').nextElementSibling).toHaveTextContent(
      'Monday 23 November',
    );
    expect(within(view).getByText('Order').nextElementSibling).toHaveTextContent('3 × 250ml Daphnia Magna');
    expect(within(view).getByText('Total').nextElementSibling).toHaveTextContent('£14.70');
    expect(screen.queryByText(/Payment Successful|Payment not completed/)).not.toBeInTheDocument();
    expect(screen.queryByText(/place your order again|order again from the shop/)).not.toBeInTheDocument();
    expect(within(view).getByRole('link', { name: 'Return Home' })).toHaveAttribute('href', '/');
  });

  it.each([
    ['paid', 'Payment Successful! Your order has been confirmed'],
    ['unpaid', 'Your order is placed We are waiting for your bank to confirm the payment'],
  ] as const)(
    'a placed order (%s) whose status answers its page: a link to it, and the way home second',
    async (status, name) => {
      stubFetch(statusAnswer(status, { orderPage: ORDER_PAGE }));
      const { user, router } = renderApp(`/success?session_id=${SESSION_ID}`);

      const heading = await screen.findByRole('heading', { level: 1, name });
      const view = heading.closest('section');
      if (!view) throw new Error('the view has no section');
      const link = within(view).getByRole('link', { name: 'View your order' });
      expect(link).toHaveAttribute('href', ORDER_PAGE);
      expect(within(view).getByRole('link', { name: 'Return Home' })).toHaveAttribute('href', '/');
      stubFetch(new Promise<Response>(() => undefined));
      await user.click(link);
      expect(router.location.pathname).toBe(ORDER_PAGE);
    },
  );

  it('no link to the order page while the status gives none (the webhook has not recorded it yet); the page asks again and shows it once given', async () => {
    stubFetch(statusAnswer('paid'), statusAnswer('paid', { orderPage: ORDER_PAGE }));
    renderApp(`/success?session_id=${SESSION_ID}`);

    await screen.findByRole('heading', { level: 1, name: /Payment Successful!/ });
    expect(screen.queryByRole('link', { name: 'View your order' })).not.toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'View your order' })).toHaveAttribute('href', ORDER_PAGE);
  });

  it('a Direct Debit the bank refused: not completed, cancelled, nothing taken, and an invitation to order again', async () => {
    stubFetch(statusAnswer('failed'));
    const { user, router } = renderApp(`/success?session_id=${SESSION_ID}`);

    const heading = await screen.findByRole('heading', {
      level: 1,
      name: 'Payment not completed Your bank did not pay the Direct Debit',
    });
    await waitFor(() => expect(heading).toHaveFocus());
    const view = heading.closest('section');
    if (!view) throw new Error('the view has no section');
    expect(view).toHaveTextContent(
      'Your bank did not pay the Bacs Direct Debit for this order, so the order is cancelled and will not be dispatched. Nothing was taken from your account and you owe us nothing. We have also sent you an email about it.',
    );
    expect(view).toHaveTextContent(
      'If you would still like your Daphnia, you are welcome to order again. A card payment confirms the order at once; a new Direct Debit waits for your bank again.',
    );
    expect(within(view).getByText('Order Reference').nextElementSibling).toHaveTextContent(REFERENCE);
    expect(within(view).getByText('Order').nextElementSibling).toHaveTextContent('3 × 250ml Daphnia Magna');
    expect(within(view).getByText('Total').nextElementSibling).toHaveTextContent('£14.70 (not taken)');
    // Nothing of the waiting or paid views: no dispatch is coming.
    expect(
      screen.queryByText(/Payment Successful|Your order is placed|waiting for your bank/),
    ).not.toBeInTheDocument();
    expect(screen.queryByText(/dispatch date|Expected dispatch/i)).not.toBeInTheDocument();

    await user.click(within(view).getByRole('link', { name: 'Order again' }));
    expect(router.location.pathname).toBe('/');
    expect(await screen.findByRole('heading', { name: 'Live Aquatics Order' })).toBeInTheDocument();
  });

  it.each(['open', 'expired'] as const)('%s session: never shows "Payment Successful!"', async (status) => {
    stubFetch(statusAnswer(status));
    renderApp(`/success?session_id=${SESSION_ID}`);

    const heading = await screen.findByRole('heading', { level: 1, name: 'Payment not completed' });
    const view = heading.closest('section');
    if (!view) throw new Error('the view has no section');
    expect(screen.queryByText(/Payment Successful/)).not.toBeInTheDocument();
    expect(within(view).getByText('Order Reference').nextElementSibling).toHaveTextContent(REFERENCE);
    expect(within(view).getByText(/no money has been taken/)).toBeInTheDocument();
    expect(within(view).getByRole('link', { name: 'Back to the shop' })).toHaveAttribute('href', '/');
  });

  it('says "payment received, we are checking your order" for a paid session held for review', async () => {
    stubFetch(statusAnswer('in_review'));
    renderApp(`/success?session_id=${SESSION_ID}`);

    const heading = await screen.findByRole('heading', {
      level: 1,
      name: 'Payment received, we are checking your order',
    });
    const view = heading.closest('section');
    if (!view) throw new Error('the view has no section');
    expect(screen.queryByText(/Payment Successful/)).not.toBeInTheDocument();
    expect(within(view).getByText(/you do not need to pay again/)).toBeInTheDocument();
    expect(within(view).getByText('Order Reference').nextElementSibling).toHaveTextContent(REFERENCE);
  });

  it('checks again, showing nothing of the old answer, when session_id changes', async () => {
    const OTHER_SESSION = 'cs_test_zzzzzzzzzzzzzzzzzzzzOtherSession';
    const second = deferred<Response>();
    const fetchMock = stubFetch(statusAnswer('paid'), second.promise);
    const { router } = renderApp(`/success?session_id=${SESSION_ID}`);
    expect(await screen.findByRole('heading', { name: /Payment Successful!/ })).toBeInTheDocument();

    await act(() => router.navigate(`/success?session_id=${OTHER_SESSION}`));

    // The first session's "paid" must not be shown under the second session's reference.
    expect(screen.getByText('Checking your payment...')).toBeInTheDocument();
    expect(screen.queryByText(/Payment Successful!/)).not.toBeInTheDocument();
    expect(requestOf(fetchMock, 1).url).toContain(`session_id=${OTHER_SESSION}`);

    second.resolve(jsonResponse({ error: 'Not found' }, 404));
    expect(await screen.findByRole('heading', { name: 'We could not find this order' })).toBeInTheDocument();
  });

  it('says the order was not found on a 404', async () => {
    stubFetch(jsonResponse({ error: 'Not found' }, 404));
    renderApp('/success?session_id=cs_test_unknown00000');

    expect(await screen.findByRole('heading', { name: 'We could not find this order' })).toBeInTheDocument();
    expect(screen.queryByText(/Payment Successful/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return Home' })).toHaveAttribute('href', '/');
  });

  it.each([
    ['a server error', jsonResponse({ error: 'Service unavailable' }, 503)],
    ['a network failure', new TypeError('Failed to fetch')],
    ['an answer of the wrong shape', jsonResponse({ status: 'paid' })],
  ])('offers to try again after %s, and "Try again" asks once more', async (_case, failure) => {
    const fetchMock = stubFetch(failure, statusAnswer('paid'));
    const { user } = renderApp(`/success?session_id=${SESSION_ID}`);

    expect(
      await screen.findByRole('heading', { name: 'We could not check your payment just now' }),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Payment Successful/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return Home' })).toHaveAttribute('href', '/');

    await user.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('heading', { name: /Payment Successful!/ })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
