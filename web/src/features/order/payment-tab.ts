/**
 * The payment page's tab, opened during the click (popup blockers stop later ones), showing at once a
 * plain "secure checkout is opening" page instead of `about:blank`. Built with DOM calls and CSSOM
 * styles, which the CSP allows, rather than inline script or `<style>`.
 */
export interface PaymentTab {
  /** Sends the tab to the payment page; when it was blocked or closed, this tab goes instead. */
  go(url: string): void;
  /** Says checkout could not start, with a button that closes the tab. */
  fail(): void;
  /** Closes the tab (an order accepted without a payment page). */
  close(): void;
}

/** No tab of its own (requests mode): a payment page goes in this tab, and there is nothing to close or explain. */
export const SAME_TAB: PaymentTab = {
  go: (url) => window.location.assign(url),
  fail: () => undefined,
  close: () => undefined,
};

/** Must run synchronously inside the click. */
export function openPaymentTab(shopName: string): PaymentTab {
  const tab = window.open('', '_blank');
  // `noopener` would make `window.open` return null, so the link back to this page is cut by hand.
  if (tab) tab.opener = null;
  const live = () => (tab && !tab.closed ? tab : null);
  const write = (content: TabContent) => {
    const target = live();
    if (!target) return;
    try {
      writePage(target.document, shopName, content, () => target.close());
    } catch {
      // A tab we cannot write to still works as the payment page's tab: nothing to show is no harm.
    }
  };

  write({
    heading: 'Opening secure checkout…',
    message:
      'Your order details are being sent to Stripe, our payment provider. The secure payment page will appear in this tab in a moment.',
  });

  return {
    go(url) {
      const target = live();
      if (target) target.location.href = url;
      // Blocked popup (or the customer closed the tab): the payment page in this tab is still a sale.
      else window.location.assign(url);
    },
    fail() {
      write({
        heading: 'Secure checkout could not open',
        message:
          'We could not start the payment, so no order has been placed and no money has been taken. Your details are still in the shop tab: please go back and try again.',
        returnButton: 'Return to the shop',
      });
    },
    close() {
      live()?.close();
    },
  };
}

interface TabContent {
  heading: string;
  message: string;
  returnButton?: string;
}

function writePage(doc: Document, shopName: string, content: TabContent, closeTab: () => void): void {
  doc.title = `${content.heading} · ${shopName}`;
  doc.documentElement.lang = 'en-GB';
  if (!doc.head.querySelector('meta[name="viewport"]')) {
    const viewport = doc.createElement('meta');
    viewport.name = 'viewport';
    viewport.content = 'width=device-width, initial-scale=1';
    doc.head.append(viewport);
  }

  const main = doc.createElement('main');
  Object.assign(main.style, {
    maxWidth: '34rem',
    margin: '12vh auto',
    padding: '0 1.25rem',
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif',
    color: '#0f2e36',
    lineHeight: '1.5',
  });
  const name = doc.createElement('p');
  name.textContent = shopName;
  Object.assign(name.style, { fontWeight: '700', color: '#0b5f6b', margin: '0 0 0.5rem' });
  const heading = doc.createElement('h1');
  heading.textContent = content.heading;
  Object.assign(heading.style, { fontSize: '1.5rem', margin: '0 0 0.75rem' });
  const message = doc.createElement('p');
  message.textContent = content.message;
  message.setAttribute('role', 'status');
  main.append(name, heading, message);

  if (content.returnButton) {
    const button = doc.createElement('button');
    button.type = 'button';
    button.textContent = content.returnButton;
    Object.assign(button.style, {
      font: 'inherit',
      fontWeight: '600',
      padding: '0.7rem 1.2rem',
      border: '0',
      borderRadius: '10px',
      background: '#0b5f6b',
      color: '#ffffff',
      cursor: 'pointer',
    });
    button.addEventListener('click', closeTab);
    main.append(button);
  }
  doc.body.replaceChildren(main);
  Object.assign(doc.body.style, { margin: '0', background: '#eef6f7' });
}
