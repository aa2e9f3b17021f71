import type { RefObject } from 'react';
import type { CheckoutRequest } from '../../../../shared/checkout-request';
import { formatDispatchDate, type IsoDate, nextDispatchDate } from '../../../../shared/dispatch';
import type { Repeat } from '../../../../shared/standing-order';
import type { ToastApi } from '../../components/toast/toast-context';
import type { ApiClient } from '../../lib/api-client';
import type { CreateCheckoutResult } from '../../lib/api-contract';
import { formatArrivalEstimate, formatCutoff } from '../../lib/dispatch-wording';
import { SELLER } from '../../lib/seller';
import type { DeliveryDetails, DetailField, FieldErrors } from './order-details';
import { checkField, ORDER_MESSAGES, type OrderValidation, validateOrder } from './order-form';
import { rememberPayment } from './order-memory';
import { openPaymentTab, type PaymentTab, SAME_TAB } from './payment-tab';

/** What the order page needs once an order starts, one chunk loaded after hydration (order-flow-loader). */
export { DeliveryDetails } from './components/delivery-details';
export { FormMemory } from './components/form-memory';
export { OrderPlaced } from './components/order-placed';
export { OrderReceived } from './components/order-received';
export { OrderSummary } from './components/order-summary';
export { QuantityStepper } from './components/quantity-stepper';
export { RepeatChoice } from './components/repeat-choice';

/** The toast a failed check raised, so it can be closed once its problem is fixed. */
export interface CheckToast {
  id: number;
  kind: 'product' | 'fields';
}

/** The order page's state and controls, as the submit and field checks need them. */
export interface OrderPageControls {
  selected: boolean;
  quantity: number;
  /** A standing order's repeat (issue 50); undefined for the spec's one-off order. */
  repeat: Repeat | undefined;
  details: DeliveryDetails;
  errors: FieldErrors;
  setErrors(errors: FieldErrors): void;
  toasts: ToastApi;
  checkToast: RefObject<CheckToast | null>;
  closeCheckToast(kind: CheckToast['kind']): void;
  focusCard(): void;
  focusField(field: DetailField): void;
  api: ApiClient;
  /** Set while a checkout request is out; stops a second click that lands before the button is disabled. */
  inFlight: RefObject<boolean>;
  setSubmitting(submitting: boolean): void;
  /** The shop takes order requests, answered without a payment page: no payment tab is opened. */
  takesRequests: boolean;
  /** The API took the order without a payment page (with the request's reference): the page shows Order received. */
  onReceived(request: CheckoutRequest, reference: string | undefined): void;
}

/** The submit: synchronous when the checks are loaded, so the payment tab opens inside the click. */
export function submitOrder(page: OrderPageControls): void {
  const result = validateOrder(page.selected, page.quantity, page.details, page.repeat);
  if (result instanceof Promise) void result.then((checked) => submitChecked(page, checked));
  else submitChecked(page, result);
}

function submitChecked(page: OrderPageControls, result: OrderValidation): void {
  if (!result.ok) {
    page.setErrors(result.errors);
    page.checkToast.current = result.toast
      ? { id: page.toasts.toast(result.toast), kind: result.focus === 'product' ? 'product' : 'fields' }
      : null;
    if (!result.toast) page.toasts.dismissAll();
    if (result.focus === 'product') page.focusCard();
    else page.focusField(result.focus);
    return;
  }
  page.setErrors({});
  // Old messages no longer apply once the order goes through.
  page.toasts.dismissAll();
  page.checkToast.current = null;
  // Not awaited before returning: the payment tab must open inside this click.
  void checkout(page, result.request).then((outcome) => {
    if (outcome.kind === 'received') page.onReceived(result.request, outcome.reference);
  });
}

type CheckoutOutcome = CreateCheckoutResult | { kind: 'busy' };

/**
 * Sends the order and opens the payment page in a new tab. In requests mode no tab is opened (it
 * would flash open and shut); a payment page answered all the same opens in this tab.
 */
async function checkout(page: OrderPageControls, request: CheckoutRequest): Promise<CheckoutOutcome> {
  if (page.inFlight.current) return { kind: 'busy' };
  page.inFlight.current = true;
  page.setSubmitting(true);
  // Synchronously, before the first await: a tab opened later would be stopped as a popup.
  const tab: PaymentTab = page.takesRequests ? SAME_TAB : openPaymentTab(SELLER.shopName);
  try {
    const result = await page.api
      .createCheckout(request)
      .catch((): CreateCheckoutResult => ({ kind: 'failed' }));
    if (result.kind === 'payment-page') {
      rememberPayment(result.sessionId, result.url);
      tab.go(result.url);
    } else if (result.kind === 'received') {
      tab.close();
    } else {
      tab.fail();
      page.toasts.toast(ORDER_MESSAGES.checkoutFailed);
    }
    return result;
  } finally {
    page.inFlight.current = false;
    page.setSubmitting(false);
  }
}

/** A refused field is rechecked as it changes; with no problem left the "Missing Information" toast goes. */
export function recheckField(page: OrderPageControls, field: DetailField, value: string): void {
  if (page.errors[field] === undefined) return;
  const next = { ...page.errors };
  const message = checkField(field, value);
  if (message === undefined) delete next[field];
  else next[field] = message;
  page.setErrors(next);
  if (Object.keys(next).length === 0) page.closeCheckToast('fields');
}

/**
 * When to order by, and when it leaves and arrives. `roomDay`: shop-status's first day with room,
 * later when the calendar's is full; null when none has room for 8 weeks.
 */
export function dispatchPlan(now: Date, cutoffHours: number, roomDay?: IsoDate | null): string {
  const day = nextDispatchDate(now, { cutoffHours });
  if (roomDay === null)
    return 'Every dispatch day for the next 8 weeks is fully booked. Please check back soon.';
  if (roomDay !== undefined && roomDay > day) {
    return `${formatDispatchDate(day)} is fully booked: orders placed now are dispatched on ${formatDispatchDate(roomDay)}. Most orders arrive the next day, ${formatArrivalEstimate(roomDay)}.`;
  }
  return `Order by ${formatCutoff(day, cutoffHours)} for dispatch on ${formatDispatchDate(day)}. Most orders arrive the next day, ${formatArrivalEstimate(day)}.`;
}
