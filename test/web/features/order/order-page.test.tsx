import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FIELD_LIMITS } from '../../../../shared/checkout-request';
import { SLOWER_DELIVERY_HINT } from '../../../../web/src/features/order/components/delivery-details';
import {
  deferred,
  jsonResponse,
  requestOf,
  stubFetch,
  stubLocationAssign,
  stubWindowOpen,
} from '../../helpers/fake-browser';
import { renderApp, TEST_CONFIG } from '../../helpers/render-app';

const CHECKOUT_URL = 'https://checkout.stripe.test/c/pay/cs_test_a1B2c3D4e5F6g7H8';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function productCard() {
  return screen.getByRole('button', { name: 'Daphnia Magna' });
}

function submitButton() {
  return screen.getByRole('button', { name: /Secure Checkout with Stripe|Processing\.\.\./ });
}

/** Destructive toasts ("Select a Product", "Checkout Failed"), announced assertively. */
function toasts() {
  return screen.getByRole('alert');
}

/** Plain toasts ("Missing Information", and our field checks), announced politely. */
function notices() {
  return screen.getByRole('status', { name: 'Notifications' });
}

async function fillDetails(
  user: UserEvent,
  details: Partial<Record<'name' | 'email' | 'phone' | 'address' | 'postcode', string>> = {},
) {
  const values = {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    phone: '',
    address: '1 Test Street\nLondon',
    postcode: 'sw1a 1aa',
    ...details,
  };
  const fields = [
    ['Full Name *', values.name],
    ['Email *', values.email],
    ['Phone Number (Optional)', values.phone],
    ['Delivery Address *', values.address],
    ['Postcode *', values.postcode],
  ] as const;
  for (const [label, value] of fields) {
    const field = screen.getByLabelText(label);
    await user.clear(field);
    if (value) await user.type(field, value);
  }
}

/** Selects the product, picks a quantity and fills valid details. */
async function prepareOrder(user: UserEvent, bottles: 3 | 6 | 9 = 3) {
  await user.click(productCard());
  for (let count = 3; count < bottles; count += 3) {
    await user.click(screen.getByRole('button', { name: 'Increase quantity' }));
  }
  await fillDetails(user);
}

describe('order page: texts', () => {
  it('shows the title, subtitle, product card and Important Information', () => {
    renderApp('/');

    expect(screen.getByRole('heading', { level: 1, name: 'Live Aquatics Order' })).toBeInTheDocument();
    expect(screen.getByText('Fresh live stock delivered within the UK')).toBeInTheDocument();

    const card = productCard();
    expect(card).toHaveAttribute('aria-pressed', 'false');
    expect(within(card).getByText('100-300 per 250ml bottle')).toBeInTheDocument();
    const was = within(card).getByText('£12.00');
    expect(was.tagName).toBe('S');
    expect(within(card).getByText('£9.75 for 3 bottles')).toBeInTheDocument();
    expect(within(card).getByText('Min. 3 bottles')).toBeInTheDocument();
    expect(within(card).getByText('£14.70 delivered')).toBeInTheDocument();
    expect(card).toHaveAccessibleDescription(/100-300 per 250ml bottle.*Was £12\.00.*£9\.75 for 3 bottles/);

    const info = screen.getByRole('region', { name: 'Important Information' });
    const points = within(info).getAllByRole('listitem');
    expect(points).toHaveLength(6);
    expect(points[0]).toHaveTextContent(
      'This is a trial run. Daphnia are live, natural stock, so the number in each bottle can vary from the estimate shown.',
    );
    expect(points[1]).toHaveTextContent(/unforeseen supply issue.*refund/i);
    expect(points[2]).toHaveTextContent(/dead-on-arrival guarantee/i);
    expect(points[3]).toHaveTextContent(/Mondays only.*first working day of the week/i);
    expect(points[4]).toHaveTextContent(/Freezing or extreme weather delays shipment/i);
    expect(points[5]).toHaveTextContent(/order status.*email confirmation.*after checkout/i);
    expect(
      within(info).getByText('By placing an order, you acknowledge and accept these terms.'),
    ).toBeInTheDocument();

    expect(submitButton()).toHaveTextContent('Secure Checkout with Stripe');
    expect(submitButton()).toBeEnabled();
  });

  it("shows the stage's own trial-run sentence and promotion", () => {
    renderApp('/', {
      config: {
        ...TEST_CONFIG,
        claims: {
          trialRunNotice: 'Our first season: thank you for trying us!',
          promotion: { referencePence: 1100, wording: 'Launch offer: £9.75 for 3 bottles' },
        },
      },
    });

    const card = productCard();
    expect(within(card).getByText('£11.00').tagName).toBe('S');
    expect(within(card).getByText('Launch offer: £9.75 for 3 bottles')).toBeInTheDocument();
    expect(within(card).queryByText('£12.00')).not.toBeInTheDocument();
    expect(card).toHaveAccessibleDescription(/Was £11\.00, now Launch offer: £9\.75 for 3 bottles/);
    // The delivered price is the checkout's, whatever the promotion says.
    expect(within(card).getByText('£14.70 delivered')).toBeInTheDocument();
    const info = screen.getByRole('region', { name: 'Important Information' });
    expect(within(info).getAllByRole('listitem')[0]).toHaveTextContent(
      'Our first season: thank you for trying us! Daphnia are live, natural stock, so the number in each bottle can vary from the estimate shown.',
    );
    expect(info).not.toHaveTextContent('trial run');
  });

  it('shows the plain pack price and no trial-run sentence when the stage turns both off', () => {
    renderApp('/', { config: { ...TEST_CONFIG, claims: {} } });

    const card = productCard();
    expect(within(card).getByText('£9.75 for 3 bottles').tagName).not.toBe('S');
    expect(card.querySelector('s')).toBeNull();
    expect(card).not.toHaveAccessibleDescription(/Was/);
    expect(within(card).getByText('£14.70 delivered')).toBeInTheDocument();
    const info = screen.getByRole('region', { name: 'Important Information' });
    const points = within(info).getAllByRole('listitem');
    expect(points).toHaveLength(6);
    expect(points[0]).toHaveTextContent(
      /^Daphnia are live, natural stock, so the number in each bottle can vary from the estimate shown\.$/,
    );
  });

  it('shows the next dispatch date near the checkout button', () => {
    // Wednesday 18 November 2026: before the Saturday-noon cut-off for Monday 23 November.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-18T12:00:00Z'));
    renderApp('/');

    const checkout = screen.getByRole('region', { name: 'Checkout' });
    expect(checkout).toHaveTextContent(
      'Order by 12:00 on Saturday 21 November for dispatch on Monday 23 November. Most orders arrive the next day, Tuesday 24 November.',
    );
    expect(checkout).not.toHaveTextContent('Dispatched');
  });

  it('moves the dispatch date to the following week after the cut-off', () => {
    // Saturday 21 November 2026, 13:00 in London: past the 36-hour cut-off for Monday 23 November.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-21T13:00:00Z'));
    renderApp('/');

    expect(screen.getByRole('region', { name: 'Checkout' })).toHaveTextContent(
      'Order by 12:00 on Saturday 28 November for dispatch on Monday 30 November. Most orders arrive the next day, Tuesday 1 December.',
    );
  });
});

describe('order page: selecting the product', () => {
  it('toggles the card and shows the stepper, details and summary only while selected', async () => {
    const { user } = renderApp('/');
    expect(
      screen.queryByText('How many bottles of Daphnia? (Minimum 3, increments of 3)'),
    ).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Delivery Details' })).not.toBeInTheDocument();
    expect(screen.queryByText('Order Total')).not.toBeInTheDocument();

    await user.click(productCard());

    expect(productCard()).toHaveAttribute('aria-pressed', 'true');
    expect(
      screen.getByRole('group', { name: 'How many bottles of Daphnia? (Minimum 3, increments of 3)' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Delivery Details' })).toBeInTheDocument();
    const summary = screen.getByRole('region', { name: 'Order Summary' });
    expect(within(summary).getByText('Subtotal').nextElementSibling).toHaveTextContent('£9.75');
    expect(within(summary).getByText('Shipping').nextElementSibling).toHaveTextContent('£4.95');
    expect(within(summary).getByText('Order Total').nextElementSibling).toHaveTextContent('£14.70');

    await user.click(productCard());

    expect(productCard()).toHaveAttribute('aria-pressed', 'false');
    expect(screen.queryByRole('group', { name: /How many bottles/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Delivery Details' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Order Summary' })).not.toBeInTheDocument();
    expect(submitButton()).toBeVisible();
  });

  it('can be toggled with the keyboard alone', async () => {
    const { user } = renderApp('/');

    await user.tab();
    expect(productCard()).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(productCard()).toHaveAttribute('aria-pressed', 'true');
    await user.keyboard(' ');
    expect(productCard()).toHaveAttribute('aria-pressed', 'false');
  });

  it('has the delivery fields, with required, types, limits and autocomplete', async () => {
    const { user } = renderApp('/');
    await user.click(productCard());

    const name = screen.getByLabelText('Full Name *');
    const email = screen.getByLabelText('Email *');
    const phone = screen.getByLabelText('Phone Number (Optional)');
    const address = screen.getByLabelText('Delivery Address *');
    const postcode = screen.getByLabelText('Postcode *');

    for (const field of [name, email, address, postcode]) expect(field).toBeRequired();
    expect(phone).not.toBeRequired();
    expect(email).toHaveAttribute('type', 'email');
    expect(phone).toHaveAttribute('type', 'tel');
    expect(address.tagName).toBe('TEXTAREA');
    expect(name).toHaveAttribute('autocomplete', 'name');
    expect(email).toHaveAttribute('autocomplete', 'email');
    expect(phone).toHaveAttribute('autocomplete', 'tel');
    expect(address).toHaveAttribute('autocomplete', 'street-address');
    expect(postcode).toHaveAttribute('autocomplete', 'postal-code');
    expect(name).toHaveAttribute('maxlength', String(FIELD_LIMITS.name));
    expect(email).toHaveAttribute('maxlength', String(FIELD_LIMITS.email));
    expect(phone).toHaveAttribute('maxlength', String(FIELD_LIMITS.phone));
    expect(address).toHaveAttribute('maxlength', String(FIELD_LIMITS.address));
    expect(postcode).toHaveAttribute('maxlength', String(FIELD_LIMITS.postcode));
  });

  it('shows the postcode in uppercase as it is typed', async () => {
    const { user } = renderApp('/');
    await user.click(productCard());

    await user.type(screen.getByLabelText('Postcode *'), 'sw1a 1aa');

    expect(screen.getByLabelText('Postcode *')).toHaveValue('SW1A 1AA');
  });

  it('gently notes slower delivery to Northern Ireland and the Highlands and Islands, without refusing', async () => {
    const { user } = renderApp('/');
    await user.click(productCard());
    const postcode = screen.getByLabelText('Postcode *');

    await user.type(postcode, 'SW1A 1AA');
    expect(postcode).not.toHaveAccessibleDescription();

    await user.clear(postcode);
    await user.type(postcode, 'BT1 1AA');
    expect(postcode).toHaveAccessibleDescription(SLOWER_DELIVERY_HINT);

    await user.clear(postcode);
    await user.type(postcode, 'HS1 2AA');
    expect(postcode).toHaveAccessibleDescription(SLOWER_DELIVERY_HINT);
  });
});

describe('order page: quantity stepper', () => {
  it('steps by 3 between 3 and 9, disabling minus at 3 and plus at 9', async () => {
    const { user } = renderApp('/');
    await user.click(productCard());
    const stepper = screen.getByRole('group', { name: /How many bottles/ });
    const minus = within(stepper).getByRole('button', { name: 'Decrease quantity' });
    const plus = within(stepper).getByRole('button', { name: 'Increase quantity' });
    const summary = () => screen.getByRole('region', { name: 'Order Summary' });

    expect(within(stepper).getByText('3 bottles')).toBeInTheDocument();
    expect(within(stepper).getByText('approx. 300-900 daphnia')).toBeInTheDocument();
    expect(within(stepper).getByText('£9.75')).toBeInTheDocument();
    expect(within(stepper).getByText('(£3.25 per bottle)')).toBeInTheDocument();
    expect(minus).toBeDisabled();
    expect(plus).toBeEnabled();

    await user.click(plus);
    expect(within(stepper).getByText('6 bottles')).toBeInTheDocument();
    expect(within(stepper).getByText('approx. 600-1,800 daphnia')).toBeInTheDocument();
    expect(within(stepper).getByText('£19.50')).toBeInTheDocument();
    expect(within(summary()).getByText('Order Total').nextElementSibling).toHaveTextContent('£24.45');
    expect(minus).toBeEnabled();

    await user.click(plus);
    expect(within(stepper).getByText('9 bottles')).toBeInTheDocument();
    expect(within(stepper).getByText('approx. 900-2,700 daphnia')).toBeInTheDocument();
    expect(within(stepper).getByText('£29.25')).toBeInTheDocument();
    expect(within(summary()).getByText('Subtotal').nextElementSibling).toHaveTextContent('£29.25');
    expect(within(summary()).getByText('Order Total').nextElementSibling).toHaveTextContent('£34.20');
    expect(plus).toBeDisabled();

    // A disabled button does nothing: still 9.
    await user.click(plus);
    expect(within(stepper).getByText('9 bottles')).toBeInTheDocument();

    await user.click(minus);
    await user.click(minus);
    expect(within(stepper).getByText('3 bottles')).toBeInTheDocument();
    expect(minus).toBeDisabled();
  });
});

describe('order page: checks on submit', () => {
  it('with no product selected, shows only "Select a Product", even with every field empty, and focuses the card', async () => {
    const fetchMock = stubFetch();
    const { open } = stubWindowOpen();
    const { user } = renderApp('/');

    await user.click(submitButton());

    const alert = toasts();
    expect(within(alert).getByText('Select a Product')).toBeInTheDocument();
    expect(within(alert).getByText('Please choose at least one product.')).toBeInTheDocument();
    // A destructive toast: nothing can go ahead until a product is chosen.
    expect(within(alert).getByText('Select a Product').closest('.toast')).toHaveClass('toast--destructive');
    expect(screen.queryByText('Missing Information')).not.toBeInTheDocument();
    // Focus goes to what must be done next.
    expect(productCard()).toHaveFocus();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(open).not.toHaveBeenCalled();

    // Selecting the product fixes the problem, so the message goes.
    await user.click(productCard());
    expect(screen.queryByText('Select a Product')).not.toBeInTheDocument();
  });

  it('with the product selected and a required field empty, shows "Missing Information" and the message beside the field', async () => {
    const fetchMock = stubFetch();
    const { open } = stubWindowOpen();
    const { user } = renderApp('/');
    await user.click(productCard());
    // Phone is optional, and a name of spaces counts as empty.
    await fillDetails(user, { name: '   ' });

    await user.click(submitButton());

    // "Missing Information" is a plain toast, unlike "Select a Product" and "Checkout Failed".
    const notice = notices();
    expect(within(notice).getByText('Missing Information')).toBeInTheDocument();
    expect(within(notice).getByText('Please fill in all required fields.')).toBeInTheDocument();
    expect(within(notice).getByText('Missing Information').closest('.toast')).not.toHaveClass(
      'toast--destructive',
    );
    expect(toasts()).toBeEmptyDOMElement();
    expect(screen.queryByText('Select a Product')).not.toBeInTheDocument();
    const name = screen.getByLabelText('Full Name *');
    expect(name).toHaveFocus();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    // The field's own message, beside it and linked to it; not a live region (announced once, on focus).
    expect(name).toHaveAccessibleDescription('Error: Please enter your full name (up to 100 characters).');
    const message = screen.getByText('Please enter your full name (up to 100 characters).');
    expect(message.closest('[aria-live], [role="status"], [role="alert"]')).toBeNull();
    expect(screen.getByLabelText('Email *')).not.toHaveAttribute('aria-invalid');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(open).not.toHaveBeenCalled();
  });

  it('shows "Missing Information" for each required field left empty', async () => {
    stubFetch();
    const { user } = renderApp('/');
    await user.click(productCard());

    for (const [field, label, message] of [
      ['email', 'Email *', 'Please enter a valid email address.'],
      ['address', 'Delivery Address *', 'Please enter your delivery address (up to 400 characters).'],
      ['postcode', 'Postcode *', 'Please enter a valid UK postcode, for example SW1A 1AA.'],
    ] as const) {
      await fillDetails(user, { [field]: '' });
      await user.click(submitButton());
      expect(within(notices()).getByText('Missing Information')).toBeInTheDocument();
      expect(screen.getByLabelText(label)).toHaveFocus();
      expect(screen.getByLabelText(label)).toHaveAccessibleDescription(`Error: ${message}`);
      await user.click(within(notices()).getByRole('button', { name: 'Close message: Missing Information' }));
      expect(screen.queryByText('Missing Information')).not.toBeInTheDocument();
    }
  });

  it("clears a field's message once it is fixed, and the toast once every field is", async () => {
    stubFetch();
    const { user } = renderApp('/');
    await user.click(productCard());
    await fillDetails(user, { name: '', email: '' });
    await user.click(submitButton());
    const name = screen.getByLabelText('Full Name *');
    const email = screen.getByLabelText('Email *');
    expect(email).toHaveAttribute('aria-invalid', 'true');

    await user.type(name, 'Ada');
    expect(name).not.toHaveAttribute('aria-invalid');
    expect(name).not.toHaveAccessibleDescription();
    expect(within(notices()).getByText('Missing Information')).toBeInTheDocument();

    // Still wrong while typing: the message changes to what is wrong now, and stays.
    await user.type(email, 'ada@');
    expect(email).toHaveAccessibleDescription('Error: Please enter a valid email address.');
    await user.type(email, 'example.com');
    expect(email).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Missing Information')).not.toBeInTheDocument();
  });

  it('clears an old message on a successful submit', async () => {
    stubFetch(
      jsonResponse({ error: 'Internal error' }, 500),
      jsonResponse({ url: CHECKOUT_URL, sessionId: 'cs_test_a1B2c3D4e5F6g7H8' }),
    );
    stubWindowOpen();
    const { user } = renderApp('/');
    await prepareOrder(user);
    await user.click(submitButton());
    expect(await within(toasts()).findByText('Checkout Failed')).toBeInTheDocument();
    await waitFor(() => expect(submitButton()).toBeEnabled());

    await user.click(submitButton());

    expect(toasts()).toBeEmptyDOMElement();
    expect(notices()).toBeEmptyDOMElement();
  });

  it('refuses Jersey, Guernsey and the Isle of Man beside the postcode, without calling them invalid', async () => {
    const fetchMock = stubFetch();
    const { user } = renderApp('/');
    await user.click(productCard());

    for (const postcode of ['JE2 3AB', 'GY1 1AA', 'IM1 1AA']) {
      await fillDetails(user, { postcode });
      await user.click(submitButton());

      const field = screen.getByLabelText('Postcode *');
      expect(field).toHaveFocus();
      expect(field).toHaveAccessibleDescription(
        'Error: We can only deliver to Great Britain and Northern Ireland: not to the Channel Islands, the Isle of Man, BFPO or overseas addresses.',
      );
      expect(screen.queryByText(/Invalid Postcode/i)).not.toBeInTheDocument();
    }
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses markup around a valid postcode', async () => {
    const fetchMock = stubFetch();
    const { user } = renderApp('/');
    await user.click(productCard());
    await fillDetails(user, { postcode: '<b>x</b> SW1A 1AA' });

    await user.click(submitButton());

    expect(screen.getByLabelText('Postcode *')).toHaveAccessibleDescription(
      'Error: Please enter a valid UK postcode, for example SW1A 1AA.',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses an email the shared schema does not accept, naming the problem beside it', async () => {
    const fetchMock = stubFetch();
    const { user } = renderApp('/');
    await user.click(productCard());
    await fillDetails(user, { email: 'ada@example' });

    await user.click(submitButton());

    expect(screen.getByLabelText('Email *')).toHaveFocus();
    expect(screen.getByLabelText('Email *')).toHaveAccessibleDescription(
      'Error: Please enter a valid email address.',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('accepts a UK phone number written with the area code in brackets', async () => {
    const fetchMock = stubFetch(jsonResponse({ url: CHECKOUT_URL, sessionId: 'cs_test_a1B2c3D4e5F6g7H8' }));
    stubWindowOpen();
    const { user } = renderApp('/');
    await user.click(productCard());
    await fillDetails(user, { phone: '(0161) 496 0000' });

    await user.click(submitButton());

    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(JSON.parse(requestOf(fetchMock).body ?? '{}')).toMatchObject({ phone: '(0161) 496 0000' });
    expect(screen.getByLabelText('Phone Number (Optional)')).not.toHaveAttribute('aria-invalid');
  });
});

describe('order page: the checkout request', () => {
  it('posts the order as JSON, amounts in pounds, with an idempotency key and no Authorization by default', async () => {
    const fetchMock = stubFetch(jsonResponse({ url: CHECKOUT_URL, sessionId: 'cs_test_a1B2c3D4e5F6g7H8' }));
    stubWindowOpen();
    const { user } = renderApp('/');
    await prepareOrder(user);

    await user.click(submitButton());

    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const request = requestOf(fetchMock);
    expect(request.url).toBe('https://api.shop.test/functions/v1/create-checkout');
    expect(request.method).toBe('POST');
    expect(request.headers.get('Content-Type')).toBe('application/json');
    expect(request.headers.get('Idempotency-Key')).toMatch(UUID);
    expect(request.headers.has('Authorization')).toBe(false);
    expect(request.body).toBe(
      JSON.stringify({
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        phone: '',
        address: '1 Test Street\nLondon',
        postcode: 'SW1A 1AA',
        quantity: 3,
        subtotal: 9.75,
        shipping: 4.95,
        total: 14.7,
      }),
    );
    // Numbers, not strings: the server compares them with its own quote.
    expect(request.body).toContain('"subtotal":9.75,"shipping":4.95,"total":14.7}');
  });

  it.each([
    [6, { quantity: 6, subtotal: 19.5, shipping: 4.95, total: 24.45 }],
    [9, { quantity: 9, subtotal: 29.25, shipping: 4.95, total: 34.2 }],
  ] as const)('sends the quantity and amounts for %i bottles', async (bottles, expected) => {
    const fetchMock = stubFetch(jsonResponse({ url: CHECKOUT_URL, sessionId: 'cs_test_a1B2c3D4e5F6g7H8' }));
    stubWindowOpen();
    const { user } = renderApp('/');
    await prepareOrder(user, bottles);

    await user.click(submitButton());

    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const body: unknown = JSON.parse(requestOf(fetchMock).body ?? 'null');
    expect(body).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: '',
      address: '1 Test Street\nLondon',
      postcode: 'SW1A 1AA',
      ...expected,
    });
  });

  it('sends the public key as a bearer when one is configured', async () => {
    const fetchMock = stubFetch(jsonResponse({ url: CHECKOUT_URL, sessionId: 'cs_test_a1B2c3D4e5F6g7H8' }));
    stubWindowOpen();
    const { user } = renderApp('/', { config: { ...TEST_CONFIG, publicKey: 'pk_public_anon' } });
    await prepareOrder(user);

    await user.click(submitButton());

    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(requestOf(fetchMock).headers.get('Authorization')).toBe('Bearer pk_public_anon');
  });

  it('uses a new idempotency key for each click', async () => {
    const fetchMock = stubFetch(jsonResponse({ error: 'x' }, 503), jsonResponse({ error: 'x' }, 503));
    stubWindowOpen();
    const { user } = renderApp('/');
    await prepareOrder(user);

    await user.click(submitButton());
    await waitFor(() => expect(submitButton()).toBeEnabled());
    await user.click(submitButton());
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));

    const first = requestOf(fetchMock, 0).headers.get('Idempotency-Key');
    const second = requestOf(fetchMock, 1).headers.get('Idempotency-Key');
    expect(first).toMatch(UUID);
    expect(second).toMatch(UUID);
    expect(second).not.toBe(first);
  });
});

describe('order page: the payment tab', () => {
  it('opens a tab during the click, shows "Processing..." while waiting, then sends the tab to the payment page', async () => {
    const answer = deferred<Response>();
    const fetchMock = stubFetch(answer.promise);
    const { open, tab } = stubWindowOpen();
    const { user } = renderApp('/');
    await prepareOrder(user);

    await user.click(submitButton());

    // Opened synchronously in the click (before any answer), so popup blockers allow it.
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(open.mock.invocationCallOrder[0]).toBeLessThan(fetchMock.mock.invocationCallOrder[0] ?? 0);
    expect(tab.opener).toBeNull();
    expect(tab.location.href).toBe('about:blank');
    // Never a blank page: from the first instant it names the shop and says what is happening.
    expect(tab.document.title).toBe('Opening secure checkout… · Live Aquatics');
    expect(tab.document.documentElement.lang).toBe('en-GB');
    expect(tab.document.querySelector('h1')?.textContent).toContain('Opening secure checkout…');
    expect(tab.document.body?.textContent).toContain('Live Aquatics');
    expect(tab.document.querySelectorAll('script, style')).toHaveLength(0);
    expect(submitButton()).toHaveTextContent('Processing...');
    expect(submitButton()).toBeDisabled();

    answer.resolve(jsonResponse({ url: CHECKOUT_URL, sessionId: 'cs_test_a1B2c3D4e5F6g7H8' }));

    await waitFor(() => expect(tab.location.href).toBe(CHECKOUT_URL));
    await waitFor(() => expect(submitButton()).toHaveTextContent('Secure Checkout with Stripe'));
    expect(submitButton()).toBeEnabled();
    expect(tab.close).not.toHaveBeenCalled();
    // The form stays as it was.
    expect(productCard()).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByLabelText('Full Name *')).toHaveValue('Ada Lovelace');
    expect(screen.queryByRole('alert')).toBeEmptyDOMElement();
  });

  it('sends one request and opens one tab when the form is submitted twice before it re-renders', async () => {
    const answer = deferred<Response>();
    const fetchMock = stubFetch(answer.promise);
    const { open, tab } = stubWindowOpen();
    const { user } = renderApp('/');
    await prepareOrder(user);
    const form = submitButton().closest('form');
    if (!form) throw new Error('the checkout button is not in a form');

    // Two submits in a row, the second before the disabled button can stop it (Enter pressed twice).
    fireEvent.submit(form);
    fireEvent.submit(form);

    expect(open).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    answer.resolve(jsonResponse({ url: CHECKOUT_URL, sessionId: 'cs_test_a1B2c3D4e5F6g7H8' }));
    await waitFor(() => expect(tab.location.href).toBe(CHECKOUT_URL));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('Checkout Failed')).not.toBeInTheDocument();
  });

  it('goes to the payment page in the same tab when the popup is blocked', async () => {
    stubFetch(jsonResponse({ url: CHECKOUT_URL, sessionId: 'cs_test_a1B2c3D4e5F6g7H8' }));
    const { open } = stubWindowOpen('blocked');
    const assign = stubLocationAssign();
    const { user } = renderApp('/');
    await prepareOrder(user);

    await user.click(submitButton());

    await waitFor(() => expect(assign).toHaveBeenCalledWith(CHECKOUT_URL));
    expect(open).toHaveBeenCalledTimes(1);
  });
});

describe('order page: checkout failures', () => {
  it.each([
    [500, 'Something went wrong. Please try again.'],
    [502, 'Unable to process your order. Please try again.'],
    [503, 'The shop is temporarily unavailable. Please try again in a few minutes.'],
  ])(
    'an API error %i shows the "Checkout Failed" toast, says so in the payment tab with a way back, and re-enables the button',
    async (status, error) => {
      stubFetch(jsonResponse({ error }, status));
      const { tab } = stubWindowOpen();
      const { user } = renderApp('/');
      await prepareOrder(user);

      await user.click(submitButton());

      const alert = await screen.findByRole('alert');
      expect(await within(alert).findByText('Checkout Failed')).toBeInTheDocument();
      expect(within(alert).getByText('Unable to process your order. Please try again.')).toBeInTheDocument();
      // The payment tab says so too, and offers the way back.
      expect(tab.document.title).toBe('Secure checkout could not open · Live Aquatics');
      expect(tab.document.body?.textContent).toContain(
        'no order has been placed and no money has been taken',
      );
      const back = tab.document.querySelector('button');
      expect(back?.textContent).toContain('Return to the shop');
      back?.click();
      expect(tab.close).toHaveBeenCalled();
      expect(submitButton()).toBeEnabled();
      expect(submitButton()).toHaveTextContent('Secure Checkout with Stripe');
    },
  );

  it('retries a network failure once with the same key, then shows "Checkout Failed"', async () => {
    const fetchMock = stubFetch(new TypeError('Failed to fetch'), new TypeError('Failed to fetch'));
    const { tab } = stubWindowOpen();
    const { user } = renderApp('/');
    await prepareOrder(user);

    await user.click(submitButton());

    expect(await within(toasts()).findByText('Checkout Failed')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    const first = requestOf(fetchMock, 0).headers.get('Idempotency-Key');
    expect(first).toMatch(UUID);
    expect(requestOf(fetchMock, 1).headers.get('Idempotency-Key')).toBe(first);
    expect(tab.document.body?.textContent).toContain('Secure checkout could not open');
    expect(submitButton()).toBeEnabled();
  });

  it('recovers when the retry after a network failure succeeds', async () => {
    stubFetch(
      new TypeError('Failed to fetch'),
      jsonResponse({ url: CHECKOUT_URL, sessionId: 'cs_test_a1B2c3D4e5F6g7H8' }),
    );
    const { tab } = stubWindowOpen();
    const { user } = renderApp('/');
    await prepareOrder(user);

    await user.click(submitButton());

    await waitFor(() => expect(tab.location.href).toBe(CHECKOUT_URL));
    expect(screen.queryByText('Checkout Failed')).not.toBeInTheDocument();
  });

  it.each([
    ['an answer that is not JSON', new Response('<html>Bad gateway</html>', { status: 200 })],
    ['a url that is not http(s)', jsonResponse({ url: 'javascript:alert(1)', sessionId: 'cs_test_x' })],
    ['an empty object', jsonResponse({})],
  ])('treats %s as a failure', async (_case, response) => {
    stubFetch(response);
    const { tab } = stubWindowOpen();
    const { user } = renderApp('/');
    await prepareOrder(user);

    await user.click(submitButton());

    expect(await within(toasts()).findByText('Checkout Failed')).toBeInTheDocument();
    expect(tab.location.href).toBe('about:blank');
    expect(tab.document.body?.textContent).toContain('Secure checkout could not open');
  });
});

describe('order page: order received', () => {
  it('shows every element of the Order-received view, and "Submit Another Order" resets the form', async () => {
    stubFetch(jsonResponse({ status: 'received' }));
    const { tab } = stubWindowOpen();
    const { user } = renderApp('/');
    await prepareOrder(user, 6);

    await user.click(submitButton());

    const heading = await screen.findByRole('heading', {
      name: 'Thank You! Your order request has been received',
    });
    expect(heading).toHaveFocus();
    expect(tab.close).toHaveBeenCalled();
    const view = heading.closest('section');
    if (!view) throw new Error('the Order-received view has no section');
    const value = (term: string) => within(view).getByText(term).nextElementSibling;
    expect(value('Product')).toHaveTextContent('Daphnia Magna');
    expect(value('Bottles')).toHaveTextContent('6 × 250ml');
    expect(value('Approximate count')).toHaveTextContent('600-1,800 daphnia');
    expect(value('Subtotal')).toHaveTextContent('£19.50');
    expect(value('Shipping')).toHaveTextContent('£4.95');
    expect(value('Total')).toHaveTextContent('£24.45');
    expect(view).toHaveTextContent(
      'We will contact you at ada@example.com to confirm your delivery details.',
    );
    expect(screen.queryByRole('button', { name: 'Secure Checkout with Stripe' })).not.toBeInTheDocument();

    await user.click(within(view).getByRole('button', { name: 'Submit Another Order' }));

    expect(productCard()).toHaveAttribute('aria-pressed', 'false');
    expect(productCard()).toHaveFocus();
    expect(screen.queryByRole('region', { name: 'Delivery Details' })).not.toBeInTheDocument();
    await user.click(productCard());
    expect(screen.getByText('3 bottles')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Decrease quantity' })).toBeDisabled();
  });
});

describe('order page: the dispatch cut-off', () => {
  it('counts the configured cut-off back from the dispatch day, on the wall clock', () => {
    // Monday 4 May 2026 is a bank holiday: dispatch moves to Tuesday 5 May; 48 hours before is Sunday 00:00.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-04-29T09:00:00Z'));
    renderApp('/', { config: { ...TEST_CONFIG, dispatchCutoffHours: 48 } });

    expect(screen.getByRole('region', { name: 'Checkout' })).toHaveTextContent(
      'Order by 00:00 on Sunday 3 May for dispatch on Tuesday 5 May. Most orders arrive the next day, Wednesday 6 May.',
    );
  });
});

describe('order page: the stepper for keyboard and screen reader users', () => {
  it('moves focus off a button that its own press disables, at 9 and back at 3', async () => {
    const { user } = renderApp('/');
    await user.click(productCard());
    const plus = screen.getByRole('button', { name: 'Increase quantity' });
    const minus = screen.getByRole('button', { name: 'Decrease quantity' });

    plus.focus();
    await user.keyboard('{Enter}');
    expect(plus).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(plus).toBeDisabled();
    expect(minus).toHaveFocus();

    await user.keyboard('{Enter}');
    await user.keyboard('{Enter}');
    expect(minus).toBeDisabled();
    expect(plus).toHaveFocus();
  });

  it('announces the new count and price in one polite live region', async () => {
    const { user } = renderApp('/');
    await user.click(productCard());

    await user.click(screen.getByRole('button', { name: 'Increase quantity' }));

    const stepper = screen.getByRole('group', { name: /How many bottles/ });
    const live = stepper.querySelectorAll('[aria-live="polite"]');
    expect(live).toHaveLength(1);
    expect(live[0]).toHaveTextContent(
      '6 bottles, approx. 600-1,800 daphnia: £19.50, or £24.45 with delivery',
    );
  });
});
