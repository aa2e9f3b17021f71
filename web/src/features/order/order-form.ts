import type { CheckoutRequest, CheckoutRequestBody } from '../../../../shared/checkout-request';
import { penceToPounds, quoteOrder } from '../../../../shared/pricing';
import type { Repeat } from '../../../../shared/standing-order';
import type { ToastOptions } from '../../components/toast/toast-context';
import { lazyModule } from '../../lib/lazy-module';

import type { DeliveryDetails, DetailField, FieldErrors } from './order-details';

export type { DeliveryDetails, DetailField, FieldErrors } from './order-details';

/** In the order the fields appear, so the first problem reported is the first one on screen. */
const FIELD_ORDER: readonly DetailField[] = ['name', 'email', 'phone', 'address', 'postcode'];
const REQUIRED_FIELDS: readonly DetailField[] = ['name', 'email', 'address', 'postcode'];

/** The order page's toasts, word for word (a contract); "Missing Information" is the one not destructive. */
export const ORDER_MESSAGES = {
  noProduct: {
    title: 'Select a Product',
    description: 'Please choose at least one product.',
    variant: 'destructive',
  },
  missing: {
    title: 'Missing Information',
    description: 'Please fill in all required fields.',
    variant: 'default',
  },
  checkoutFailed: {
    title: 'Checkout Failed',
    description: 'Unable to process your order. Please try again.',
    variant: 'destructive',
  },
} as const satisfies Record<string, ToastOptions>;

export type OrderValidation =
  | { ok: true; request: CheckoutRequest }
  | {
      ok: false;
      /** One of the page's toasts (ORDER_MESSAGES) when the failure has one; field checks speak inline only. */
      toast: Required<ToastOptions> | undefined;
      errors: FieldErrors;
      /** Where focus goes: the product card, or the first field with a problem. */
      focus: 'product' | DetailField;
    };

/** The body before the schema has checked it: the quantity is any number until then. */
type UncheckedBody = Omit<CheckoutRequestBody, 'quantity'> & { quantity: number };

/** The request body, amounts from the shared quote; `repeat` only for a standing order. */
function buildCheckoutBody(details: DeliveryDetails, quantity: number, repeat?: Repeat): UncheckedBody {
  const quote = quoteOrder(quantity);
  return {
    ...details,
    quantity,
    subtotal: penceToPounds(quote.subtotalPence),
    shipping: penceToPounds(quote.shippingPence),
    total: penceToPounds(quote.totalPence),
    ...(repeat !== undefined && { repeat }),
  };
}

type RequestChecks = typeof import('../../../../shared/checkout-request');
const requestChecks = lazyModule(() => import('../../../../shared/checkout-request'));

/** Loads the request schema (and zod) in its own chunk once an order starts; a failed load is retried. */
export const loadRequestChecks = requestChecks.load;

/** One field's problem by the server's own schema; only asked after a submit, when the checks are loaded. */
export function checkField(field: DetailField, value: string): string | undefined {
  const checks = requestChecks.current();
  if (!checks) return undefined;
  const result = checks.checkoutRequestSchema.shape[field].safeParse(value);
  return result.success ? undefined : (result.error.issues[0]?.message ?? 'Please check this field.');
}

/**
 * The submit's checks in fixed order: a product, the required fields, then the shared schema (so a bad
 * postcode is caught before the payment page); every field's message at once. Synchronous, so the
 * payment tab opens inside the click, unless the schema has not loaded yet: then a promise.
 */
export function validateOrder(
  selected: boolean,
  quantity: number,
  details: DeliveryDetails,
  repeat?: Repeat,
): OrderValidation | Promise<OrderValidation> {
  if (!selected) return { ok: false, toast: ORDER_MESSAGES.noProduct, errors: {}, focus: 'product' };

  const checks = requestChecks.current();
  if (checks) return checkRequest(checks, quantity, details, repeat);
  return loadRequestChecks().then(
    (checks) => checkRequest(checks, quantity, details, repeat),
    // Offline, or the chunk went with a new deployment: nothing could be sent anyway.
    (): OrderValidation => ({ ok: false, toast: ORDER_MESSAGES.checkoutFailed, errors: {}, focus: 'name' }),
  );
}

function checkRequest(
  { checkoutRequestSchema, describeIssues }: RequestChecks,
  quantity: number,
  details: DeliveryDetails,
  repeat: Repeat | undefined,
): OrderValidation {
  const parsed = checkoutRequestSchema.safeParse(buildCheckoutBody(details, quantity, repeat));
  if (parsed.success) return { ok: true, request: parsed.data };

  const { fields } = describeIssues(parsed.error);
  const errors: FieldErrors = {};
  for (const field of FIELD_ORDER) {
    const message = fields[field];
    if (message !== undefined) errors[field] = message;
  }
  const missing = REQUIRED_FIELDS.some((field) => details[field].trim() === '');
  const first = FIELD_ORDER.find((field) => errors[field] !== undefined) ?? 'name';
  // A failure no field explains (the amounts, the quantity) cannot be fixed by the customer.
  const toast = missing
    ? ORDER_MESSAGES.missing
    : Object.keys(errors).length === 0
      ? ORDER_MESSAGES.checkoutFailed
      : undefined;
  return { ok: false, toast, errors, focus: first };
}
