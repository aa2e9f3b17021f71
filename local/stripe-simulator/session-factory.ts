import { newLineItemId, newPriceId, newProductId, newSessionId, newShippingRateId } from './ids';
import type { CreateSessionInput, ShippingRateInput } from './session-params';
import type {
  CheckoutSessionRecord,
  LineItemRecord,
  ProductRecord,
  ShippingRateRecord,
} from './session-types';

export interface BuiltSession {
  record: CheckoutSessionRecord;
  shippingRate: ShippingRateRecord | null;
  products: ProductRecord[];
}

/**
 * A new open session from validated parameters. Stripe makes a Product and a Price for each
 * `price_data` line and a ShippingRate for `shipping_rate_data`; the server prices the order
 * from those, never from anything the client sent as a total.
 */
export function buildSession(input: CreateSessionInput, now: number, publicUrl: string): BuiltSession {
  const products: ProductRecord[] = [];
  const id = newSessionId();
  const lineItems = input.lineItems.map((item): LineItemRecord => {
    const product: ProductRecord = {
      id: newProductId(),
      object: 'product',
      active: false,
      created: now,
      description: item.description,
      images: [],
      livemode: false,
      metadata: item.productMetadata,
      name: item.name,
      type: 'service',
      updated: now,
    };
    products.push(product);
    const amount = item.unitAmount * item.quantity;
    return {
      id: newLineItemId(),
      object: 'item',
      amount_discount: 0,
      amount_subtotal: amount,
      amount_tax: 0,
      amount_total: amount,
      currency: item.currency,
      description: item.name,
      metadata: {},
      price: {
        id: newPriceId(),
        object: 'price',
        active: false,
        billing_scheme: 'per_unit',
        created: now,
        currency: item.currency,
        custom_unit_amount: null,
        livemode: false,
        lookup_key: null,
        metadata: {},
        nickname: null,
        product: product.id,
        recurring: null,
        tax_behavior: 'unspecified',
        tiers_mode: null,
        transform_quantity: null,
        type: 'one_time',
        unit_amount: item.unitAmount,
        unit_amount_decimal: String(item.unitAmount),
      },
      quantity: item.quantity,
    };
  });
  const subtotal = lineItems.reduce((sum, item) => sum + item.amount_subtotal, 0);
  const shippingRate = input.shippingRate === null ? null : toShippingRate(input.shippingRate, now);
  const shipping = shippingRate?.fixed_amount.amount ?? 0;
  const record: CheckoutSessionRecord = {
    id,
    object: 'checkout.session',
    after_expiration: null,
    allow_promotion_codes: null,
    amount_subtotal: subtotal,
    amount_total: subtotal + shipping,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: input.cancelUrl,
    client_reference_id: input.clientReferenceId,
    client_secret: null,
    collected_information: null,
    created: now,
    currency: input.currency,
    custom_fields: [],
    custom_text: {
      after_submit: null,
      shipping_address: null,
      submit: input.submitMessage === null ? null : { message: input.submitMessage },
      terms_of_service_acceptance: null,
    },
    customer: null,
    customer_creation: 'if_required',
    customer_details: null,
    customer_email: input.customerEmail,
    discounts: [],
    expires_at: input.expiresAt,
    invoice: null,
    line_items: {
      object: 'list',
      data: lineItems,
      has_more: false,
      url: `/v1/checkout/sessions/${id}/line_items`,
    },
    livemode: false,
    locale: input.locale,
    metadata: input.metadata,
    mode: 'payment',
    payment_intent: null,
    payment_link: null,
    payment_method_collection: 'if_required',
    payment_method_types: ['card'],
    payment_status: 'unpaid',
    phone_number_collection: { enabled: false },
    recovered_from: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost:
      shippingRate === null
        ? null
        : {
            amount_subtotal: shipping,
            amount_tax: 0,
            amount_total: shipping,
            shipping_rate: shippingRate.id,
          },
    shipping_options:
      shippingRate === null ? [] : [{ shipping_amount: shipping, shipping_rate: shippingRate.id }],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: input.successUrl,
    total_details: { amount_discount: 0, amount_shipping: shipping, amount_tax: 0 },
    ui_mode: 'hosted_page',
    url: `${publicUrl}/c/pay/${id}`,
  };
  return { record, shippingRate, products };
}

function toShippingRate(input: ShippingRateInput, now: number): ShippingRateRecord {
  return {
    id: newShippingRateId(),
    object: 'shipping_rate',
    active: false,
    created: now,
    delivery_estimate: input.deliveryEstimate,
    display_name: input.displayName,
    fixed_amount: { amount: input.amount, currency: input.currency },
    livemode: false,
    metadata: input.metadata,
    tax_behavior: 'unspecified',
    tax_code: null,
    type: 'fixed_amount',
  };
}
