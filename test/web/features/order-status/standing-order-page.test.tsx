import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferred, jsonResponse, requestOf, stubFetch } from '../../helpers/fake-browser';
import { renderApp } from '../../helpers/render-app';

// A standing order's own page (issue 50): the order page's link, when its token names a
// subscription, answers the standing order; each change is one POST answered by the new view.

const TOKEN = 'c3ViX3NlYWxlZC10b2tlbi1vZi1hLXN0YW5kaW5n';

/** A weekly standing order for 3 bottles as the API answers it (shared/standing-order-page.ts). */
function standingView(overrides: Record<string, unknown> = {}) {
  return {
    kind: 'standing-order',
    status: 'active',
    customerName: 'Wendy Weekly',
    repeat: 'weekly',
    repeatText: 'Every week',
    bottles: 3,
    item: '3 × 250ml bottles of Daphnia (live)',
    totalPence: 1470,
    deliverTo: { address: '7 Canal Side\nLeeds', postcode: 'LS1 4AP', phone: '' },
    deliveries: [
      {
        day: '2026-12-14',
        dayText: 'Monday 14 December',
        state: 'paid',
        paymentText: 'Monday 7 December',
        reference: 'AB12CD34EF56',
      },
      { day: '2026-12-21', dayText: 'Monday 21 December', state: 'due', paymentText: 'Monday 14 December' },
      { day: '2026-12-29', dayText: 'Tuesday 29 December', state: 'due', paymentText: 'Monday 21 December' },
    ],
    actions: ['skip', 'pause', 'quantity', 'cancel'],
    skipOpenUntil: 'Saturday 12 December at 12:00',
    seller: {
      name: 'Live Aquatics Ltd',
      email: 'hello@live-aquatics.test',
      address: '1 Test Street, Testville, TE1 1ST',
    },
    ...overrides,
  };
}

const CHANGE_URL = 'https://api.shop.test/functions/v1/order-page/standing-order';

async function openPage(...answers: Response[]) {
  const fetchMock = stubFetch(jsonResponse(standingView()), ...answers);
  const rendered = renderApp(`/order/${TOKEN}`);
  await screen.findByRole('heading', { level: 1, name: 'Your standing order is active' });
  return { fetchMock, ...rendered };
}

function sentBody(fetchMock: ReturnType<typeof stubFetch>, index = 1): unknown {
  const sent = requestOf(fetchMock, index);
  expect(sent.url).toBe(CHANGE_URL);
  expect(sent.method).toBe('POST');
  return JSON.parse(sent.body ?? '');
}

describe('a standing order’s page, /order/<token>', () => {
  it('shows what comes, how often, what each delivery costs, where to, and the coming deliveries', async () => {
    const { fetchMock } = await openPage();

    expect(requestOf(fetchMock).url).toBe(`https://api.shop.test/functions/v1/order-page?token=${TOKEN}`);
    expect(document.title).toBe('Standing order · Live Aquatics');
    expect(screen.getByText('Order').nextElementSibling).toHaveTextContent(
      '3 × 250ml bottles of Daphnia (live)',
    );
    expect(screen.getByText('How often').nextElementSibling).toHaveTextContent('Every week');
    expect(screen.getByText('Each delivery').nextElementSibling).toHaveTextContent('£14.70');

    const coming = screen.getByRole('region', { name: 'Coming deliveries' });
    expect(
      within(coming)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Monday 14 December: paid, order AB12CD34EF56',
      'Monday 21 December: due, we take £14.70 on Monday 14 December',
      'Tuesday 29 December: due, we take £14.70 on Monday 21 December',
    ]);
    const deliverTo = screen.getByRole('region', { name: 'Deliver to' });
    expect(within(deliverTo).getByText('Address').nextElementSibling?.innerHTML).toBe(
      '7 Canal Side<br>Leeds',
    );
    expect(within(deliverTo).getByText('Postcode').nextElementSibling).toHaveTextContent('LS1 4AP');
    expect(within(deliverTo).getByText('Phone').nextElementSibling).toHaveTextContent('None given');

    const seller = screen.getByRole('region', { name: 'Questions about your standing order?' });
    expect(within(seller).getByRole('link', { name: 'hello@live-aquatics.test' })).toHaveAttribute(
      'href',
      'mailto:hello@live-aquatics.test?subject=Standing%20order',
    );
    // Only the actions the server lists: resume is not one while active.
    const changes = screen.getByRole('region', { name: 'Change your standing order' });
    expect(
      within(changes)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual([
      'Skip the delivery on Monday 14 December',
      'Change to 3 bottles',
      'Pause deliveries',
      'Cancel standing order',
    ]);
  });

  it('skips the next delivery before its cut-off: one request with its day, the new view, and focus on what it came to', async () => {
    const skipped = standingView({
      deliveries: [
        { day: '2026-12-14', dayText: 'Monday 14 December', state: 'skipped' },
        { day: '2026-12-21', dayText: 'Monday 21 December', state: 'due', paymentText: 'Monday 14 December' },
      ],
      skipOpenUntil: 'Saturday 19 December at 12:00',
    });
    const { fetchMock, user } = await openPage(jsonResponse(skipped));

    expect(
      screen.getByText(
        'Your next delivery is on Monday 14 December. You can skip it until Saturday 12 December at 12:00.',
      ),
    ).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Skip the delivery on Monday 14 December' }));

    const said = await screen.findByText(
      'Skipped: no delivery on Monday 14 December. We are refunding its £14.70 in full. We have emailed you a confirmation.',
    );
    await waitFor(() => expect(said).toHaveFocus());
    expect(
      within(screen.getByRole('region', { name: 'Change your standing order' })).getByRole('status'),
    ).toContainElement(said);
    expect(sentBody(fetchMock)).toEqual({ token: TOKEN, action: 'skip', day: '2026-12-14' });
    expect(fetchMock.mock.calls[1]?.[1]?.referrerPolicy).toBe('no-referrer');
    expect(
      within(screen.getByRole('region', { name: 'Coming deliveries' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Monday 14 December: skipped, nothing to pay',
      'Monday 21 December: due, we take £14.70 on Monday 14 December',
    ]);
    // The next one not skipped is offered now.
    expect(screen.getByRole('button', { name: 'Skip the delivery on Monday 21 December' })).toBeVisible();
  });

  it('an unpaid delivery skipped is never charged', async () => {
    const unpaid = standingView({
      deliveries: [
        { day: '2026-12-21', dayText: 'Monday 21 December', state: 'due', paymentText: 'Monday 14 December' },
      ],
    });
    stubFetch(jsonResponse(unpaid), jsonResponse(standingView({ deliveries: [] })));
    const { user } = renderApp(`/order/${TOKEN}`);

    await user.click(await screen.findByRole('button', { name: 'Skip the delivery on Monday 21 December' }));

    expect(
      await screen.findByText(
        'Skipped: no delivery on Monday 21 December. We will not charge you for it. We have emailed you a confirmation.',
      ),
    ).toBeVisible();
  });

  it('a paid delivery past its packing cut-off is listed, but the skip is for the next one', async () => {
    stubFetch(jsonResponse(standingView({ skipOpenUntil: 'Saturday 19 December at 12:00' })));
    renderApp(`/order/${TOKEN}`);

    expect(
      await screen.findByRole('button', { name: 'Skip the delivery on Monday 21 December' }),
    ).toBeVisible();
    expect(
      screen.getByText(
        'Your next delivery is on Monday 21 December. You can skip it until Saturday 19 December at 12:00.',
      ),
    ).toBeVisible();
  });

  it('changes the quantity to 6 bottles: the price of each choice, one request, the new cost', async () => {
    const six = standingView({ bottles: 6, item: '6 × 250ml bottles of Daphnia (live)', totalPence: 2445 });
    const { fetchMock, user } = await openPage(jsonResponse(six));

    const group = screen.getByRole('group', { name: 'Bottles each delivery' });
    expect(
      within(group)
        .getAllByRole('radio')
        .map((radio) => radio.parentElement?.textContent),
    ).toEqual(['3 bottles, £14.70', '6 bottles, £24.45', '9 bottles, £34.20']);
    expect(within(group).getByRole('radio', { name: '3 bottles, £14.70' })).toBeChecked();
    expect(within(group).getByRole('button', { name: 'Change to 3 bottles' })).toBeDisabled();
    await user.click(within(group).getByRole('radio', { name: '6 bottles, £24.45' }));
    await user.click(within(group).getByRole('button', { name: 'Change to 6 bottles' }));

    const said = await screen.findByText(
      'Changed to 6 bottles a delivery, £24.45 each, from your next payment. We have emailed you a confirmation.',
    );
    await waitFor(() => expect(said).toHaveFocus());
    expect(sentBody(fetchMock)).toEqual({ token: TOKEN, action: 'quantity', quantity: 6 });
    expect(screen.getByText('Each delivery').nextElementSibling).toHaveTextContent('£24.45');
  });

  it('pauses, then resumes, each as the server then offers it', async () => {
    const paused = standingView({ status: 'paused', deliveries: [], actions: ['resume', 'cancel'] });
    const { fetchMock, user } = await openPage(jsonResponse(paused), jsonResponse(standingView()));

    await user.click(screen.getByRole('button', { name: 'Pause deliveries' }));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Your standing order is paused' }),
    ).toBeVisible();
    expect(
      screen.getByText(
        'Paused: we take no payments and send nothing until you resume. We have emailed you a confirmation.',
      ),
    ).toHaveFocus();
    expect(sentBody(fetchMock)).toEqual({ token: TOKEN, action: 'pause' });
    expect(screen.getByRole('region', { name: 'Coming deliveries' })).toHaveTextContent(
      'No deliveries while your standing order is paused.',
    );
    expect(screen.queryByRole('button', { name: 'Pause deliveries' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Resume deliveries' }));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Your standing order is active' }),
    ).toBeVisible();
    await waitFor(() =>
      expect(
        screen.getByText(
          'Resumed: your coming deliveries are listed below. We have emailed you a confirmation.',
        ),
      ).toHaveFocus(),
    );
    expect(sentBody(fetchMock, 2)).toEqual({ token: TOKEN, action: 'resume' });
  });

  it('cancels only after a confirmation step; "No, keep it" sends nothing and returns focus', async () => {
    const cancelled = standingView({ status: 'cancelled', deliveries: [], actions: [] });
    const { fetchMock, user } = await openPage(jsonResponse(cancelled));

    await user.click(screen.getByRole('button', { name: 'Cancel standing order' }));
    const question = screen.getByText(
      'Cancel your standing order? We will take no more payments for it, and this cannot be undone here.',
    );
    await waitFor(() => expect(question).toHaveFocus());
    expect(screen.getByRole('group', { name: question.textContent ?? '' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'No, keep it' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Cancel standing order' })).toHaveFocus());
    expect(fetchMock).toHaveBeenCalledTimes(1);

    await user.click(screen.getByRole('button', { name: 'Cancel standing order' }));
    await user.click(screen.getByRole('button', { name: 'Yes, cancel it' }));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Your standing order is cancelled' }),
    ).toBeVisible();
    await waitFor(() =>
      expect(
        screen.getByText(
          'Your standing order is cancelled: we will take no more payments for it. We have emailed you a confirmation.',
        ),
      ).toHaveFocus(),
    );
    expect(sentBody(fetchMock)).toEqual({ token: TOKEN, action: 'cancel' });
    const changes = screen.getByRole('region', { name: 'Change your standing order' });
    expect(within(changes).queryByRole('button')).not.toBeInTheDocument();
    expect(changes).toHaveTextContent(
      'This standing order is cancelled: we take no more payments for it. You are welcome to order again.',
    );
    expect(screen.getByRole('region', { name: 'Coming deliveries' })).toHaveTextContent(
      'No more deliveries: this standing order is cancelled.',
    );
  });

  it('shows a refusal’s own words as an alert, focused, and keeps the view', async () => {
    const refusal = 'Monday 14 December is being packed (changes closed on Saturday 12 December at 12:00).';
    const { user } = await openPage(jsonResponse({ error: refusal }, 409));

    await user.click(screen.getByRole('button', { name: 'Skip the delivery on Monday 14 December' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(refusal);
    await waitFor(() => expect(alert).toHaveFocus());
    expect(screen.getByRole('heading', { level: 1, name: 'Your standing order is active' })).toBeVisible();
  });

  it('says so while saving, disables every change meanwhile, and says so in words when the request fails', async () => {
    const answer = deferred<Response>();
    const { user } = await openPage();
    stubFetch(answer.promise);

    await user.click(screen.getByRole('button', { name: 'Pause deliveries' }));

    const changes = screen.getByRole('region', { name: 'Change your standing order' });
    expect(within(changes).getByRole('status')).toHaveTextContent('Saving your change…');
    for (const button of within(changes).getAllByRole('button')) expect(button).toBeDisabled();
    answer.resolve(jsonResponse({ error: 'Something went wrong.' }, 500));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'We could not make this change just now. Please check your connection and try again.',
    );
    expect(screen.getByRole('button', { name: 'Pause deliveries' })).toBeEnabled();
  });

  it('a link no longer valid for changes says so', async () => {
    const { user } = await openPage(jsonResponse({ error: 'Not found.' }, 404));

    await user.click(screen.getByRole('button', { name: 'Pause deliveries' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This link no longer opens your standing order. Please contact the seller.',
    );
  });

  it('says why the shop holds its payments when the merchant paused the shop', async () => {
    stubFetch(
      jsonResponse(standingView({ shopPauseText: 'We are not taking payments until Monday 4 January.' })),
    );
    renderApp(`/order/${TOKEN}`);

    expect(await screen.findByText('We are not taking payments until Monday 4 January.')).toBeVisible();
  });
});
