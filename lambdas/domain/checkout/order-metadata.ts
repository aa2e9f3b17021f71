import * as z from 'zod/mini';
import { calendarDateSchema } from '../../../shared/calendar-date';
import type { CheckoutRequest } from '../../../shared/checkout-request';
import type { IsoDate } from '../../../shared/dispatch';

/**
 * The session metadata key holding this deployment's SHOP_ID: status, fulfilment and the reconciler act only
 * on their own, so stages or developers sharing a Stripe account never touch each other's sessions.
 */
export const SHOP_MARKER_KEY = 'shop';

/** Version of the metadata layout below, so fulfilment can tell old sessions from new ones. */
export const ORDER_METADATA_VERSION = '1';

/** True when a session's metadata carries this deployment's marker (`shopId`: SHOP_ID). */
export function hasShopMarker(
  metadata: Readonly<Record<string, string>> | null | undefined,
  shopId: string,
): boolean {
  return metadata?.[SHOP_MARKER_KEY] === shopId;
}

/** Metadata as Stripe returns it: text values, or none. */
export const stripeMetadataSchema = z.optional(z.nullable(z.record(z.string(), z.string())));

/** True when `input`, an object as Stripe returned it, carries this deployment's marker. Parsed, not cast. */
export function isShopSession(input: unknown, shopId: string): boolean {
  const metadata = stripeMetadataSchema.safeParse(
    typeof input === 'object' && input !== null && 'metadata' in input ? input.metadata : undefined,
  );
  return metadata.success && hasShopMarker(metadata.data, shopId);
}

/**
 * `client_reference_id` prefix of a request's payment link (`req_<reference>`; the shop's own are `ord_`):
 * its metadata is an ordinary order's, so this tells the two apart.
 */
export const PAYMENT_LINK_REFERENCE_PREFIX = 'req_';

/** True for a session the merchant made to invite payment for an order request. */
export function isPaymentLinkSession(session: { client_reference_id: string | null }): boolean {
  return session.client_reference_id?.startsWith(PAYMENT_LINK_REFERENCE_PREFIX) ?? false;
}

/**
 * What fulfilment needs, as Stripe metadata (session and PaymentIntent). `phone` only when given (Stripe
 * reads empty as "unset"); `debit_dispatch_date` is the day to expect by Bacs. The checkout schema's limits
 * keep every value within Stripe's 500 characters.
 */
export function orderMetadata(
  order: CheckoutRequest,
  dispatch: { card: IsoDate; debit: IsoDate },
  shopId: string,
): Record<string, string> {
  return {
    [SHOP_MARKER_KEY]: shopId,
    order_version: ORDER_METADATA_VERSION,
    name: order.name,
    ...(order.phone ? { phone: order.phone } : {}),
    address: order.address,
    postcode: order.postcode,
    quantity: String(order.quantity),
    dispatch_date: dispatch.card,
    debit_dispatch_date: dispatch.debit,
  };
}

/** What orderMetadata wrote, read back from Stripe and checked again; `phone` absent when none was given. */
export const orderMetadataSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1)),
  phone: z._default(z.optional(z.string().check(z.trim())), ''),
  address: z.string().check(z.trim(), z.minLength(1)),
  postcode: z.string().check(z.trim(), z.minLength(1)),
  quantity: z.string().check(z.regex(/^\d{1,2}$/)),
  dispatch_date: z.optional(calendarDateSchema),
  debit_dispatch_date: z.optional(calendarDateSchema),
});
