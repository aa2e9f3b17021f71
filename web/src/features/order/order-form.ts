import type { CheckoutRequest, CheckoutRequestBody } from '../../../../shared/checkout-request';
import { penceToPounds, quoteOrder } from '../../../../shared/pricing';
import type { ToastOptions } from '../../components/toast/toast-context';

/** The customer's delivery details, as typed: all strings, phone optional. */
export interface DeliveryDetails {
  name: string;
  email: string;
  phone: string;
  address: string;
  postcode: string;
}
export type DetailField = keyof DeliveryDetails;

export const EMPTY_DETAILS: DeliveryDetails = { name: '', email: '', phone: '', address: '', postcode: '' };

/** In the order the fields appear, so the first problem reported is the first one on screen. */
const FIELD_ORDER: readonly DetailField[] = ['name', 'email', 'phone', 'address', 'postcode'];
const REQUIRED_FIELDS: readonly DetailField[] = ['name', 'email', 'address', 'postcode'];

/**
 * The order page's toasts, word for word (their texts are a contract): "Select a Product" and
 * "Checkout Failed" are destructive toasts, "Missing Information" a plain one.
 */
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
  | ({ ok: false; fields: readonly DetailField[] } & Required<ToastOptions>);

/** The body before the schema has checked it: the quantity is any number until then. */
type UncheckedBody = Omit<CheckoutRequestBody, 'quantity'> & { quantity: number };

/** The checkout request body: amounts in pounds from the shared quote, so page and server agree. */
function buildCheckoutBody(details: DeliveryDetails, quantity: number): UncheckedBody {
  const quote = quoteOrder(quantity);
  return {
    ...details,
    quantity,
    subtotal: penceToPounds(quote.subtotalPence),
    shipping: penceToPounds(quote.shippingPence),
    total: penceToPounds(quote.totalPence),
  };
}

type RequestChecks = typeof import('../../../../shared/checkout-request');
let requestChecks: Promise<RequestChecks> | undefined;
let loadedChecks: RequestChecks | undefined;

/**
 * Loads the shared request schema (and zod with it) in its own chunk, once. The page calls this
 * when the customer starts an order, so it is there by the time they submit; a failed load is
 * retried on the next call.
 */
export function loadRequestChecks(): Promise<RequestChecks> {
  requestChecks ??= import('../../../../shared/checkout-request').then(
    (checks) => {
      loadedChecks = checks;
      return checks;
    },
    (error: unknown) => {
      requestChecks = undefined;
      throw error;
    },
  );
  return requestChecks;
}

/**
 * The checks run on submit, in this fixed order: a product, then the required fields, then
 * the shared request schema (our addition, so a bad postcode is caught before the payment page).
 * The answer is synchronous, so the payment tab can still open inside the click, except when the
 * schema has not loaded yet (see `loadRequestChecks`): then it is a promise.
 */
export function validateOrder(
  selected: boolean,
  quantity: number,
  details: DeliveryDetails,
): OrderValidation | Promise<OrderValidation> {
  if (!selected) return { ok: false, ...ORDER_MESSAGES.noProduct, fields: [] };

  const missing = REQUIRED_FIELDS.filter((field) => details[field].trim() === '');
  if (missing.length > 0) return { ok: false, ...ORDER_MESSAGES.missing, fields: missing };

  if (loadedChecks) return checkRequest(loadedChecks, quantity, details);
  return loadRequestChecks().then(
    (checks) => checkRequest(checks, quantity, details),
    // Offline, or the chunk went with a new deployment: nothing could be sent anyway.
    (): OrderValidation => ({ ok: false, ...ORDER_MESSAGES.checkoutFailed, fields: [] }),
  );
}

function checkRequest(
  { checkoutRequestSchema, describeIssues }: RequestChecks,
  quantity: number,
  details: DeliveryDetails,
): OrderValidation {
  const parsed = checkoutRequestSchema.safeParse(buildCheckoutBody(details, quantity));
  if (parsed.success) return { ok: true, request: parsed.data };

  // Our own checks speak like "Missing Information": a plain toast, focus on the field.
  const { fields, message } = describeIssues(parsed.error);
  const field = FIELD_ORDER.find((key) => fields[key] !== undefined);
  if (!field) {
    return { ok: false, title: 'Check Your Details', description: message, variant: 'default', fields: [] };
  }
  return {
    ok: false,
    title: field === 'postcode' ? 'Invalid Postcode' : 'Check Your Details',
    description: fields[field] ?? message,
    variant: 'default',
    fields: [field],
  };
}
