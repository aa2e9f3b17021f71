import type { CheckoutRequest } from '../../shared/checkout-request';
import type { IsoDate } from '../../shared/dispatch';

/**
 * The metadata marker create-checkout puts on every session it creates; the status lookup and
 * fulfilment act only on sessions that carry it. A Stripe account can hold other sales.
 */
export const SHOP_MARKER = { key: 'shop', value: 'live-aquatics' } as const;

/** Version of the metadata layout below, so fulfilment can tell old sessions from new ones. */
export const ORDER_METADATA_VERSION = '1';

/** True when a session's metadata carries our marker. */
export function hasShopMarker(metadata: Readonly<Record<string, string>> | null | undefined): boolean {
  return metadata?.[SHOP_MARKER.key] === SHOP_MARKER.value;
}

/**
 * What fulfilment needs to know about an order, as Stripe metadata (on the session and copied to
 * the PaymentIntent). Keys: shop, order_version, name, phone (only when given: Stripe reads an
 * empty value as "unset"), address, postcode (normalised), quantity, dispatch_date (YYYY-MM-DD).
 * The checkout schema's field limits keep every value within Stripe's 500 characters.
 */
export function orderMetadata(order: CheckoutRequest, dispatchDate: IsoDate): Record<string, string> {
  return {
    [SHOP_MARKER.key]: SHOP_MARKER.value,
    order_version: ORDER_METADATA_VERSION,
    name: order.name,
    ...(order.phone ? { phone: order.phone } : {}),
    address: order.address,
    postcode: order.postcode,
    quantity: String(order.quantity),
    dispatch_date: dispatchDate,
  };
}
