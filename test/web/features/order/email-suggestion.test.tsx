import { screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, requestOf, stubFetch, stubWindowOpen } from '../../helpers/fake-browser';
import { renderApp } from '../../helpers/render-app';

// A likely typo in a common email domain is offered a correction under the field, once the
// customer leaves it; taking it is one press, and leaving it does not stop the order.

async function startOrder(user: UserEvent): Promise<HTMLElement> {
  await user.click(screen.getByRole('button', { name: 'Daphnia Magna' }));
  return screen.findByLabelText('Email *');
}

function suggestionButton() {
  return screen.queryByRole('button', { name: 'Use this address' });
}

describe('order page: a suggested email address', () => {
  it('offers "Did you mean zoe@gmail.com?" for zoe@gmial.con once the field is left, not while typing', async () => {
    stubFetch();
    const { user } = renderApp('/');
    const email = await startOrder(user);

    await user.type(email, 'zoe@gmial.con');
    expect(screen.queryByText(/Did you mean/)).not.toBeInTheDocument();
    await user.tab();

    expect(email).toHaveAccessibleDescription('Did you mean zoe@gmail.com? Use this address');
    expect(screen.getByText('zoe@gmail.com')).toBeVisible();
    expect(suggestionButton()).toBeVisible();
  });

  it('takes the suggestion on a press: the field holds it, has focus, and the offer goes', async () => {
    stubFetch();
    const { user } = renderApp('/');
    const email = await startOrder(user);
    await user.type(email, 'zoe@hotmial.co.uk');
    await user.tab();

    const button = suggestionButton();
    if (!button) throw new Error('expected a suggestion');
    await user.click(button);

    expect(email).toHaveValue('zoe@hotmail.co.uk');
    expect(email).toHaveFocus();
    expect(suggestionButton()).not.toBeInTheDocument();
    expect(screen.queryByText(/Did you mean/)).not.toBeInTheDocument();
  });

  it('withdraws the offer when the customer edits the address, until they leave the field again', async () => {
    stubFetch();
    const { user } = renderApp('/');
    const email = await startOrder(user);
    await user.type(email, 'zoe@gmail.co');
    await user.tab();
    expect(suggestionButton()).toBeVisible();

    await user.type(email, 'm');

    expect(suggestionButton()).not.toBeInTheDocument();
    await user.tab();
    expect(suggestionButton()).not.toBeInTheDocument();
  });

  it('says nothing about an address on a common domain, or on any other real one', async () => {
    stubFetch();
    const { user } = renderApp('/');
    const email = await startOrder(user);

    for (const address of ['zoe@gmail.com', 'zoe@pondside.co.uk']) {
      await user.clear(email);
      await user.type(email, address);
      await user.tab();
      expect(screen.queryByText(/Did you mean/)).not.toBeInTheDocument();
    }
  });

  it('never refuses: an order with the address as typed goes ahead', async () => {
    const fetchMock = stubFetch(
      jsonResponse({ url: 'https://checkout.stripe.test/c/pay/cs_test_a1', sessionId: 'cs_test_a1' }),
    );
    stubWindowOpen();
    const { user } = renderApp('/');
    const email = await startOrder(user);
    await user.type(screen.getByLabelText('Full Name *'), 'Zoë Brontë');
    await user.type(email, 'zoe@gmial.con');
    await user.type(screen.getByLabelText('Delivery Address *'), '1 Pondside Lane\nLittle Wetton');
    await user.type(screen.getByLabelText('Postcode *'), 'SW1A 1AA');
    expect(suggestionButton()).toBeVisible();

    await user.type(screen.getByLabelText('Postcode *'), '{Enter}');

    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(JSON.parse(requestOf(fetchMock).body ?? '{}')).toMatchObject({
      name: 'Zoë Brontë',
      email: 'zoe@gmial.con',
    });
  });
});
