import { render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { SiteFooter } from '../../../../web/src/components/layout/site-footer';
import { jsonResponse, stubFetch } from '../../helpers/fake-browser';
import { renderApp } from '../../helpers/render-app';

function Broken(): never {
  throw new Error('boom');
}

function footer() {
  return screen.getByRole('contentinfo');
}

/** The one live-animal statement the page, the terms and the email share (its key sentence). */
const RESPONSIBILITY = 'your order is our responsibility until it is delivered';

describe('seller identity', () => {
  it('shows the seller, address, contact and the policy links in the footer of the order page', () => {
    renderApp('/');

    const bottom = footer();
    expect(bottom).toHaveTextContent(
      'Live Aquatics is sold by Live Aquatics (local test shop), 1 Test Street, Testville, TE1 1ST.',
    );
    expect(within(bottom).getByRole('link', { name: 'hello@live-aquatics.test' })).toHaveAttribute(
      'href',
      'mailto:hello@live-aquatics.test',
    );
    const policies = within(bottom).getByRole('navigation', { name: 'Shop policies' });
    expect(within(policies).getByRole('link', { name: 'Privacy notice' })).toHaveAttribute(
      'href',
      '/privacy',
    );
    expect(within(policies).getByRole('link', { name: 'Terms of sale' })).toHaveAttribute('href', '/terms');
    expect(within(policies).getByRole('link', { name: 'Contact us' })).toHaveAttribute('href', '/contact');
  });

  it('names a shop that trades under its own name once, without "sold by"', () => {
    render(
      <MemoryRouter>
        <SiteFooter
          seller={{
            shopName: 'Live Aquatics',
            name: 'Live Aquatics',
            address: '1 Test Street, Testville',
            email: 'hello@live-aquatics.example',
          }}
        />
      </MemoryRouter>,
    );

    const sentence = within(footer()).getByText(/Testville/);
    expect(sentence).toHaveTextContent(
      'Live Aquatics, 1 Test Street, Testville. hello@live-aquatics.example',
    );
    expect(sentence).not.toHaveTextContent('sold by');
  });

  it('says who sells when the seller trades under another name, whatever the letter case', () => {
    const seller = { address: '2 Pond Lane, Leeds', email: 'hello@pond.example' };
    const { unmount } = render(
      <MemoryRouter>
        <SiteFooter seller={{ ...seller, shopName: 'Live Aquatics', name: 'Pond Life Ltd' }} />
      </MemoryRouter>,
    );
    expect(footer()).toHaveTextContent('Live Aquatics is sold by Pond Life Ltd, 2 Pond Lane, Leeds.');
    unmount();

    render(
      <MemoryRouter>
        <SiteFooter seller={{ ...seller, shopName: 'Live Aquatics', name: 'LIVE AQUATICS' }} />
      </MemoryRouter>,
    );
    expect(footer()).toHaveTextContent('LIVE AQUATICS, 2 Pond Lane, Leeds.');
    expect(footer()).not.toHaveTextContent('sold by');
  });

  it("shows the shop's logo in the header of every page, sized and named by the shop's name", async () => {
    const expectLogo = () => {
      const logo = screen.getByRole('img', { name: 'Live Aquatics' });
      expect(logo).toHaveAttribute('src', '/favicon.svg');
      expect(logo).toHaveAttribute('width', '48');
      expect(logo).toHaveAttribute('height', '48');
      // The page's header, above its main content.
      expect(logo.closest('header')?.nextElementSibling).toBe(screen.getByRole('main'));
    };
    const order = renderApp('/');
    expectLogo();
    order.unmount();

    stubFetch(new Promise<Response>(() => {}));
    const success = renderApp('/success?session_id=cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqR');
    expect(await screen.findByRole('heading', { name: 'Checking your payment...' })).toBeInTheDocument();
    expectLogo();
    success.unmount();

    renderApp('/privacy');
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy notice' })).toBeInTheDocument();
    expectLogo();
  });

  it('shows the footer, with the shop name, on the 404 and success pages too', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/no-such-page');
    expect(footer()).toHaveTextContent('Live Aquatics is sold by');

    stubFetch(
      jsonResponse({
        status: 'paid',
        reference: 'i9J0kLmNoPqR',
        bottles: 3,
        total: 1470,
        dispatchDate: '2026-11-23',
      }),
    );
    renderApp('/success?session_id=cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqR');
    await screen.findByText('i9J0kLmNoPqR');
    expect(screen.getAllByRole('contentinfo')).toHaveLength(2);
  });

  it('shows the footer, with the shop name, on the error page', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/broken', { routes: <Route path="/broken" element={<Broken />} /> });

    expect(screen.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(footer()).toHaveTextContent('Live Aquatics is sold by Live Aquatics (local test shop)');
  });

  it('links the policies next to the checkout button', async () => {
    const { user } = renderApp('/');
    await user.click(screen.getByRole('button', { name: 'Daphnia Magna' }));

    const checkout = screen.getByRole('region', { name: 'Checkout' });
    expect(within(checkout).getByRole('link', { name: 'Terms of sale' })).toHaveAttribute('href', '/terms');
    expect(within(checkout).getByRole('link', { name: 'Privacy notice' })).toHaveAttribute(
      'href',
      '/privacy',
    );
  });
});

describe('policy pages', () => {
  it('serves a privacy notice naming the controller, the processors and the ICO', async () => {
    renderApp('/privacy');

    // The policy pages load on demand.
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy notice' })).toBeInTheDocument();
    expect(document.title).toBe('Privacy notice · Live Aquatics');
    const page = screen.getByRole('article');
    expect(page).toHaveTextContent('Live Aquatics (local test shop) ("we") is the controller');
    expect(page).toHaveTextContent('Stripe (payment), Amazon Web Services');
    expect(page).toHaveTextContent("Information Commissioner's Office");
  });

  it('serves terms with the seller, prices, the weekly cut-off and the live-animal statement', async () => {
    renderApp('/terms');

    // The policy pages load on demand.
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms of sale' })).toBeInTheDocument();
    const page = screen.getByRole('article');
    expect(page).toHaveTextContent(
      'sold by Live Aquatics (local test shop), 1 Test Street, Testville, TE1 1ST',
    );
    expect(page).toHaveTextContent('at £3.25 a bottle, plus UK delivery of £4.95 per order');
    expect(page).toHaveTextContent('orders placed after Saturday 12:00 before a Monday dispatch');
    expect(page).toHaveTextContent('the 14-day right to cancel does not apply');
    expect(page).toHaveTextContent(RESPONSIBILITY);
  });

  it('serves a contact page with every seller detail', async () => {
    renderApp('/contact');

    // The policy pages load on demand.
    expect(await screen.findByRole('heading', { level: 1, name: 'Contact us' })).toBeInTheDocument();
    const page = screen.getByRole('article');
    expect(within(page).getByText('1 Test Street, Testville, TE1 1ST')).toBeInTheDocument();
    expect(within(page).getByRole('link', { name: 'hello@live-aquatics.test' })).toBeInTheDocument();
  });
});

describe('live animals on arrival', () => {
  it('says the same on the order page as in the terms: no DOA guarantee, statutory rights kept', () => {
    renderApp('/');
    const info = screen.getByRole('region', { name: 'Important Information' });
    const point = within(info).getAllByRole('listitem')[2];
    expect(point).toHaveTextContent(
      'We do not offer a dead-on-arrival guarantee beyond your statutory rights',
    );
    expect(point).toHaveTextContent(RESPONSIBILITY);
    expect(point).toHaveTextContent(
      'If it arrives dead or not as described, email hello@live-aquatics.test on the day of delivery',
    );
  });
});
