import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { deferred, jsonResponse, requestOf, stubFetch } from '../../helpers/fake-browser';
import { renderApp } from '../../helpers/render-app';

const TOKEN = 'Zm9vYmFyLXNlYWxlZC10b2tlbg';

const SELLER = {
  name: 'Live Aquatics Ltd',
  email: 'hello@live-aquatics.test',
  address: '1 Test Street, Testville, TE1 1ST',
};

/** A paid order's page as the API answers it (lambdas/domain/order-page/order-page.ts). */
function paidView(overrides: Record<string, unknown> = {}) {
  return {
    reference: 'I9J0KLMNOPQR',
    customerName: 'Ada Lovelace',
    item: '3 × 250ml bottles of Daphnia (live)',
    subtotalPence: 1200,
    shippingPence: 270,
    totalPence: 1470,
    status: 'paid',
    deliverTo: { address: '4 Track Row\nYork', postcode: 'YO1 7HH', phone: '07700 900123' },
    timeline: [
      {
        title: 'Paid on Saturday 28 November',
        detail: 'We received your payment of £14.70 and your order is confirmed.',
      },
      { title: 'Dispatch planned for Monday 30 November', detail: 'By Royal Mail 1st Class.' },
    ],
    correctionOpenUntil: '12:00 on Saturday 28 November',
    seller: SELLER,
    ...overrides,
  };
}

function dispatchedView() {
  return paidView({
    status: 'dispatched',
    correctionOpenUntil: undefined,
    timeline: [
      { title: 'Paid on Saturday 28 November' },
      {
        title: 'Dispatched on Monday 30 November',
        detail: 'Tracking number AB123456789GB.',
        link: {
          text: 'Track AB123456789GB with Royal Mail',
          href: 'https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB',
        },
      },
    ],
    arrivalAdvice: ['Please open it as soon as it arrives.', 'If nobody will be in, tell the courier.'],
  });
}

describe('the order page, /order/<token>', () => {
  it('says it is loading, then shows the reference, what was ordered and paid, the timeline and the seller', async () => {
    const answer = deferred<Response>();
    const fetchMock = stubFetch(answer.promise);
    renderApp(`/order/${TOKEN}`);

    expect(await screen.findByRole('status')).toHaveTextContent('Loading your order…');
    answer.resolve(jsonResponse(paidView()));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Paid, waiting for dispatch' }),
    ).toBeVisible();
    const request = requestOf(fetchMock);
    expect(request.url).toBe(`https://api.shop.test/functions/v1/order-page?token=${TOKEN}`);
    expect(request.method).toBe('GET');
    expect(fetchMock.mock.calls[0]?.[1]?.referrerPolicy).toBe('no-referrer');
    expect(screen.getByText('Order Reference').nextElementSibling).toHaveTextContent('I9J0KLMNOPQR');
    expect(screen.getByText('Order').nextElementSibling).toHaveTextContent(
      '3 × 250ml bottles of Daphnia (live)',
    );
    expect(screen.getByText('Subtotal').nextElementSibling).toHaveTextContent('£12.00');
    expect(screen.getByText('Delivery').nextElementSibling).toHaveTextContent('£2.70');
    expect(screen.getByText('Total paid').nextElementSibling).toHaveTextContent('£14.70');

    const progress = screen.getByRole('region', { name: 'Progress' });
    expect(
      within(progress)
        .getAllByRole('listitem')
        .map((step) => step.textContent),
    ).toEqual([
      'Paid on Saturday 28 NovemberWe received your payment of £14.70 and your order is confirmed.',
      'Dispatch planned for Monday 30 NovemberBy Royal Mail 1st Class.',
    ]);
    // Arrival advice only once the parcel is on its way.
    expect(screen.queryByRole('region', { name: 'When your parcel arrives' })).not.toBeInTheDocument();

    const seller = screen.getByRole('region', { name: 'Questions about your order?' });
    expect(seller).toHaveTextContent(
      'Email hello@live-aquatics.test quoting your order reference I9J0KLMNOPQR.',
    );
    expect(within(seller).getByRole('link', { name: 'hello@live-aquatics.test' })).toHaveAttribute(
      'href',
      'mailto:hello@live-aquatics.test?subject=Order%20I9J0KLMNOPQR',
    );
    expect(seller).toHaveTextContent('Live Aquatics is sold by Live Aquatics Ltd');
    expect(document.title).toBe('Order I9J0KLMNOPQR · Live Aquatics');
  });

  it('keeps its intro, the same element, from "loading" to the order: the largest text paints once, first', async () => {
    const answer = deferred<Response>();
    stubFetch(answer.promise);
    renderApp(`/order/${TOKEN}`);

    const intro = await screen.findByText(
      'Your order from payment to your door: its dispatch day, any change to it, and its tracking once it is on its way. The link to this page opens your order, so please keep it to yourself.',
    );
    answer.resolve(jsonResponse(paidView()));

    await screen.findByRole('heading', { level: 1, name: 'Paid, waiting for dispatch' });
    expect(intro).toBeVisible();
    expect(screen.getByText(/^Your order from payment to your door/)).toBe(intro);
  });

  it('keeps itself out of search engines and sends no referrer, in every state', async () => {
    stubFetch(jsonResponse({ error: 'Not found.' }, 404));
    renderApp(`/order/${TOKEN}`);

    await screen.findByRole('heading', { name: 'Oops! Page not found' });
    expect(document.head.querySelector('meta[name="robots"]')).toHaveAttribute(
      'content',
      'noindex, nofollow',
    );
    expect(document.head.querySelector('meta[name="referrer"]')).toHaveAttribute('content', 'no-referrer');
  });

  it('a refused token (wrong, tampered, revoked) shows the plain 404 page, with no order data', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch(jsonResponse({ error: 'Not found.' }, 404));
    renderApp(`/order/${TOKEN}x`);

    expect(await screen.findByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
    expect(screen.queryByText(/Order Reference|Progress|Delivery details/)).not.toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveTextContent('Error 404Oops! Page not foundReturn to Home');
  });

  it("logs the refused page's 404 without its token", async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch(jsonResponse({ error: 'Not found.' }, 404));
    renderApp(`/order/${TOKEN}`);

    await screen.findByRole('heading', { name: 'Oops! Page not found' });
    await waitFor(() =>
      expect(consoleError).toHaveBeenCalledWith(
        '404 Error: User attempted to access non-existent route:',
        '/order/…',
      ),
    );
    expect(JSON.stringify(consoleError.mock.calls)).not.toContain(TOKEN);
  });

  it('a token with a malformed escape is asked about as it stands, and refused like any other', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const fetchMock = stubFetch(jsonResponse({ error: 'Not found.' }, 404));
    renderApp('/order/abc%E0');

    expect(await screen.findByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
    expect(requestOf(fetchMock).url).toBe('https://api.shop.test/functions/v1/order-page?token=abc%25E0');
  });

  it('says so in words when the order cannot be loaded, and tries again on request', async () => {
    stubFetch(jsonResponse({ error: 'Something went wrong.' }, 500), jsonResponse(paidView()));
    const { user } = renderApp(`/order/${TOKEN}`);

    expect(
      await screen.findByRole('heading', { name: 'We could not load your order just now' }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('heading', { name: 'Paid, waiting for dispatch' })).toBeInTheDocument();
  });

  it('once dispatched: the Royal Mail tracking link (new tab, no referrer), the arrival advice, and nothing to correct', async () => {
    stubFetch(jsonResponse(dispatchedView()));
    renderApp(`/order/${TOKEN}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'On its way' })).toBeInTheDocument();
    const track = screen.getByRole('link', {
      name: 'Track AB123456789GB with Royal Mail (opens in a new tab)',
    });
    expect(track).toHaveAttribute(
      'href',
      'https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB',
    );
    expect(track).toHaveAttribute('rel', 'noreferrer');
    expect(track).toHaveAttribute('target', '_blank');

    const arrival = screen.getByRole('region', { name: 'When your parcel arrives' });
    expect(arrival).toHaveTextContent('Please open it as soon as it arrives.');
    expect(arrival).toHaveTextContent('If nobody will be in, tell the courier.');
    expect(arrival).toHaveTextContent(
      'email hello@live-aquatics.test on the day of delivery if you can, quoting your order reference I9J0KLMNOPQR',
    );
    expect(screen.queryByRole('button', { name: 'Correct delivery details' })).not.toBeInTheDocument();
    expect(screen.queryByText(/can no longer be changed here/)).not.toBeInTheDocument();
  });

  it('after the packing cut-off: no form, and the page says to contact the seller', async () => {
    stubFetch(jsonResponse(paidView({ correctionOpenUntil: undefined })));
    renderApp(`/order/${TOKEN}`);

    const details = await screen.findByRole('region', { name: 'Delivery details' });
    expect(details).toHaveTextContent(
      'We are packing your order, so these can no longer be changed here. To change anything, please contact the seller at hello@live-aquatics.test quoting your order reference I9J0KLMNOPQR.',
    );
    expect(within(details).queryByRole('button')).not.toBeInTheDocument();
  });

  it('corrects the delivery details before the cut-off: the checkout’s checks first, then one request, then a short confirmation', async () => {
    const corrected = paidView({
      deliverTo: { address: '5 New Row\nYork', postcode: 'YO1 8AA', phone: '' },
    });
    const fetchMock = stubFetch(jsonResponse(paidView()), jsonResponse(corrected));
    const { user } = renderApp(`/order/${TOKEN}`);

    const details = await screen.findByRole('region', { name: 'Delivery details' });
    expect(details).toHaveTextContent(
      'You can correct these until 12:00 on Saturday 28 November, when we start packing.',
    );
    await user.click(within(details).getByRole('button', { name: 'Correct delivery details' }));
    const form = within(details).getByRole('form', { name: 'Correct delivery details' });
    const address = within(form).getByLabelText('Delivery Address *');
    expect(address).toHaveValue('4 Track Row\nYork');
    await user.clear(address);
    await user.type(address, '5 New Row{Enter}York');
    const postcode = within(form).getByLabelText('Postcode *');
    await user.clear(postcode);
    await user.type(postcode, 'JE2 3AB');
    await user.clear(within(form).getByLabelText('Phone Number (Optional)'));
    await user.click(within(form).getByRole('button', { name: 'Save delivery details' }));

    // Refused in the page, as the checkout refuses it: nothing sent.
    expect(postcode).toHaveAccessibleDescription(
      'Error: We can only deliver to Great Britain and Northern Ireland: not to the Channel Islands, the Isle of Man, BFPO or overseas addresses.',
    );
    await waitFor(() => expect(postcode).toHaveFocus());
    expect(fetchMock).toHaveBeenCalledTimes(1);

    await user.clear(postcode);
    await user.type(postcode, 'yo1 8aa');
    await user.click(within(form).getByRole('button', { name: 'Save delivery details' }));

    expect(
      await within(details).findByText(
        'Your delivery details are updated. We have emailed you a confirmation.',
      ),
    ).toBeVisible();
    const sent = requestOf(fetchMock, 1);
    expect(sent.url).toBe('https://api.shop.test/functions/v1/order-page/address');
    expect(sent.method).toBe('POST');
    expect(JSON.parse(sent.body ?? '')).toEqual({
      token: TOKEN,
      address: '5 New Row\nYork',
      postcode: 'YO1 8AA',
      phone: '',
    });
    expect(within(details).queryByRole('form')).not.toBeInTheDocument();
    expect(within(details).getByText('Address').nextElementSibling?.innerHTML).toBe('5 New Row<br>York');
    expect(within(details).getByText('Postcode').nextElementSibling).toHaveTextContent('YO1 8AA');
    expect(within(details).getByText('Phone').nextElementSibling).toHaveTextContent('None given');
  });

  it('a correction the server refuses (the cut-off passed meanwhile) closes the form with its reason', async () => {
    const refusal =
      'I9J0KLMNOPQR is being packed for Monday 30 November (changes closed at 12:00): please contact the seller.';
    stubFetch(jsonResponse(paidView()), jsonResponse({ error: refusal }, 409));
    const { user } = renderApp(`/order/${TOKEN}`);

    await user.click(await screen.findByRole('button', { name: 'Correct delivery details' }));
    await user.click(screen.getByRole('button', { name: 'Save delivery details' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Correct delivery details' })).not.toBeInTheDocument();
  });

  it('shows the server’s message beside a field it refuses', async () => {
    stubFetch(
      jsonResponse(paidView()),
      jsonResponse(
        {
          error: 'Please enter a valid phone number, or leave it empty.',
          fields: { phone: 'Please enter a valid phone number, or leave it empty.' },
        },
        400,
      ),
    );
    const { user } = renderApp(`/order/${TOKEN}`);

    await user.click(await screen.findByRole('button', { name: 'Correct delivery details' }));
    await user.click(screen.getByRole('button', { name: 'Save delivery details' }));

    const phone = screen.getByLabelText('Phone Number (Optional)');
    await waitFor(() =>
      expect(phone).toHaveAccessibleDescription(
        'Error: Please enter a valid phone number, or leave it empty.',
      ),
    );
    expect(screen.getByRole('form', { name: 'Correct delivery details' })).toBeInTheDocument();
  });
});
