import type Stripe from 'stripe';
import { escapeHtml } from '../../lambdas/domain/emails/render';
import { standInPage } from '../stand-in-page';
import type { CheckoutSessionRecord } from './objects';

/** Minor units to en-GB money text (`1470`, `gbp` → `£14.70`), honouring zero-decimal currencies. */
export function formatAmount(minorUnits: number, currency: string): string {
  try {
    const formatter = new Intl.NumberFormat('en-GB', { style: 'currency', currency: currency.toUpperCase() });
    const digits = formatter.resolvedOptions().maximumFractionDigits ?? 2;
    return formatter.format(minorUnits / 10 ** digits);
  } catch {
    // A session patched to a currency Intl does not know still renders.
    return `${minorUnits} ${currency}`;
  }
}

const STYLES = `
*,*::before,*::after{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1f36;background:#f6f8fa}
.test-mode{margin:0;padding:.5rem 1rem;background:#ffde92;color:#5a3d00;font-weight:700;text-align:center;letter-spacing:.05em}
main{max-width:30rem;margin:0 auto;padding:1rem}
.card{background:#fff;border:1px solid #e3e8ee;border-radius:.5rem;padding:1rem 1.25rem;margin-bottom:1rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
h2{font-size:1.1rem;margin:0 0 .75rem}
ul{list-style:none;margin:0;padding:0}
.row{display:flex;justify-content:space-between;gap:1rem;padding:.4rem 0}
.row dd{margin:0;white-space:nowrap}
.row dt,.row .name{min-width:0;overflow-wrap:anywhere}
.detail{display:block;color:#5c6670;font-size:.875rem}
.total{border-top:1px solid #e3e8ee;margin-top:.4rem;padding-top:.6rem;font-weight:700}
dl{margin:0}
label{display:block;font-weight:600;margin-bottom:.25rem}
input{width:100%;font:inherit;padding:.6rem .75rem;border:1px solid #8792a2;border-radius:.375rem}
input:focus,button:focus,a:focus{outline:3px solid #7aa7ff;outline-offset:2px}
input[aria-invalid="true"]{border-color:#c0123c}
.nowrap{white-space:nowrap}
.hint{color:#5c6670;font-size:.875rem;margin:.25rem 0 .75rem}
.error{color:#c0123c;font-weight:600;margin:.25rem 0 .75rem}
.message{background:#f6f8fa;border-radius:.375rem;padding:.5rem .75rem}
fieldset{border:0;margin:0 0 .75rem;padding:0}
legend{font-weight:600;margin-bottom:.25rem}
.choice{display:flex;gap:.5rem;align-items:baseline;padding:.25rem 0}
.choice input{width:auto}
.secondary{background:#fff;color:#0a2540;border:1px solid #0a2540;margin-top:.5rem}
button{width:100%;font:inherit;font-weight:700;padding:.75rem;border:0;border-radius:.375rem;background:#0a2540;color:#fff;cursor:pointer}
a{color:#0a4fc2}
@media (min-width:48rem){main{padding:2rem 1rem}}
`;

function layout(title: string, content: string): string {
  return standInPage({
    title: `${title} · Stripe Checkout simulator`,
    style: STYLES,
    body: content,
    noindex: true,
    banner:
      '<header><p class="test-mode">TEST MODE · Stripe Checkout simulator: no real payment is taken</p></header>',
  });
}

export interface PaymentPageView {
  session: CheckoutSessionRecord;
  shippingRate: Stripe.ShippingRate | null;
  error?: string;
  cardNumber?: string;
}

export function renderPaymentPage({ session, shippingRate, error, cardNumber }: PaymentPageView): string {
  const money = (amount: number) => escapeHtml(formatAmount(amount, session.currency));
  const payLabel = `Pay ${formatAmount(session.amount_total, session.currency)}`;
  const items = session.line_items.data
    .map(
      (item) => `<li class="row"><span class="name">${escapeHtml(item.description ?? 'Item')}
<span class="detail">Qty ${item.quantity} × ${money(item.price.unit_amount)}</span></span>
<span>${money(item.amount_total)}</span></li>`,
    )
    .join('\n');
  const delivery =
    session.shipping_cost === null
      ? ''
      : `<div class="row"><dt>Delivery${
          shippingRate === null
            ? ''
            : `<span class="detail">${escapeHtml(shippingRate.display_name ?? '')}</span>`
        }</dt><dd>${money(session.shipping_cost.amount_total)}</dd></div>`;
  const describedBy = error === undefined ? 'card-hint' : 'card-hint card-error';
  // Stripe shows `custom_text.submit` by its one pay button whatever the method; here each
  // method has its own button, so each carries it.
  const submitMessage = session.custom_text.submit?.message;
  const message = submitMessage === undefined ? '' : `<p class="message">${escapeHtml(submitMessage)}</p>`;
  const content = `<h1>${escapeHtml(payLabel)}</h1>
<section class="card" aria-labelledby="summary-heading">
<h2 id="summary-heading">Order summary</h2>
<ul>
${items}
</ul>
<dl>
<div class="row"><dt>Subtotal</dt><dd>${money(session.amount_subtotal)}</dd></div>
${delivery}
<div class="row total"><dt>Total due</dt><dd>${money(session.amount_total)}</dd></div>
</dl>${repeatNote(session)}
</section>
<section class="card" aria-labelledby="payment-heading">
<h2 id="payment-heading">Payment</h2>
${session.customer_email === null ? '' : `<p>Email: <strong>${escapeHtml(session.customer_email)}</strong></p>`}
<form method="post" novalidate>
<label for="card-number">Card number</label>
<input id="card-number" name="card_number" type="text" inputmode="numeric" autocomplete="cc-number"
 placeholder="4242 4242 4242 4242" required aria-describedby="${describedBy}"${error === undefined ? '' : ' aria-invalid="true"'}
 value="${escapeHtml(cardNumber ?? '')}">
<p id="card-hint" class="hint">Test cards: <span class="nowrap">4242 4242 4242 4242</span> pays; <span class="nowrap">4000 0000 0000 0002</span> is declined.</p>
${error === undefined ? '' : `<p id="card-error" class="error" role="alert">${escapeHtml(error)}</p>`}
${message}
<button type="submit">${escapeHtml(payLabel)}</button>
</form>
</section>
${debitSection(session, message)}
${session.cancel_url === null ? '' : `<p><a href="${escapeHtml(session.cancel_url)}">Cancel and return to the shop</a></p>`}`;
  return layout(payLabel, content);
}

/** The Bacs Direct Debit form, for a session that takes Bacs (a subscription here does not). */
function debitSection(session: CheckoutSessionRecord, message: string): string {
  if (!session.payment_method_types.includes('bacs_debit')) return '';
  return `<section class="card" aria-labelledby="debit-heading">
<h2 id="debit-heading">Bacs Direct Debit (test)</h2>
<p class="hint">A debit takes days to settle: the session completes unpaid and the shop hears later whether the bank collected it.</p>
<form method="post">
<input type="hidden" name="method" value="bacs_debit">
<fieldset>
<legend>When the bank settles</legend>
${DEBIT_CHOICES.map(
  ([value, label], index) =>
    `<label class="choice"><input type="radio" name="outcome" value="${value}"${index === 0 ? ' checked' : ''}> ${label}</label>`,
).join('\n')}
</fieldset>
${message}
<button type="submit" class="secondary">Confirm Direct Debit of ${escapeHtml(formatAmount(session.amount_total, session.currency))}</button>
</form>
</section>`;
}

/** A subscription's session says how often the same amount is taken again. */
function repeatNote(session: CheckoutSessionRecord): string {
  const recurring = session.line_items.data[0]?.price.recurring;
  if (recurring === null || recurring === undefined) return '';
  const every =
    recurring.interval_count === 1
      ? recurring.interval
      : `${recurring.interval_count} ${recurring.interval}s`;
  return `\n<p class="detail">Then ${escapeHtml(formatAmount(session.amount_total, session.currency))} every ${escapeHtml(every)}, until cancelled.</p>`;
}

const DEBIT_CHOICES = [
  ['collected', 'Collected at once (succeeds)'],
  ['collected_later', 'Settles later: succeeds'],
  ['fails_later', 'Settles later: fails'],
] as const;

/**
 * A completed session whose Direct Debit is still processing, with test controls to settle it
 * now: what the bank does days later at Stripe, on demand for a browser test.
 */
export function renderProcessingPage(session: CheckoutSessionRecord): string {
  const action = `/c/pay/${encodeURIComponent(session.id)}/settle`;
  const button = (outcome: string, label: string, extra = '') =>
    `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="outcome" value="${outcome}"><button type="submit"${extra}>${label}</button></form>`;
  return layout(
    'Direct Debit processing',
    `<section class="card"><h1>Direct Debit processing</h1>
<p>The payment of ${escapeHtml(formatAmount(session.amount_total, session.currency))} is waiting for the bank.</p>
${button('succeeded', 'Settle now: collected')}
${button('failed', 'Settle now: failed', ' class="secondary"')}
</section>`,
  );
}

/** A page for a session that cannot be paid (expired, already paid) or does not exist. */
export function renderNoticePage(title: string, message: string, returnUrl: string | null): string {
  const link = returnUrl === null ? '' : `<p><a href="${escapeHtml(returnUrl)}">Return to the shop</a></p>`;
  return layout(
    title,
    `<section class="card"><h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>\n${link}</section>`,
  );
}
