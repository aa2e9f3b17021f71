/**
 * The JSON shapes the simulator answers with: the subset of Stripe's objects that Checkout in
 * `payment` mode fills for this shop, field names and value types exactly as Stripe sends them.
 */

export type SessionStatus = 'open' | 'complete' | 'expired';
export type SessionPaymentStatus = 'paid' | 'unpaid' | 'no_payment_required';

export interface ProductRecord {
  id: string;
  object: 'product';
  active: boolean;
  created: number;
  description: string | null;
  images: string[];
  livemode: false;
  metadata: Record<string, string>;
  name: string;
  type: 'service';
  updated: number;
}

export interface PriceRecord {
  id: string;
  object: 'price';
  active: boolean;
  billing_scheme: 'per_unit';
  created: number;
  currency: string;
  custom_unit_amount: null;
  livemode: false;
  lookup_key: null;
  metadata: Record<string, string>;
  nickname: null;
  /** The product id, or the product itself with `expand[]=line_items.data.price.product`. */
  product: string | ProductRecord;
  recurring: null;
  tax_behavior: 'unspecified';
  tiers_mode: null;
  transform_quantity: null;
  type: 'one_time';
  unit_amount: number;
  unit_amount_decimal: string;
}

export interface LineItemRecord {
  id: string;
  object: 'item';
  amount_discount: number;
  amount_subtotal: number;
  amount_tax: number;
  amount_total: number;
  currency: string;
  description: string | null;
  metadata: Record<string, string>;
  price: PriceRecord;
  quantity: number;
}

export interface ListRecord<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
}

export interface DeliveryEstimateBound {
  unit: 'business_day' | 'day' | 'hour' | 'month' | 'week';
  value: number;
}

export interface ShippingRateRecord {
  id: string;
  object: 'shipping_rate';
  active: boolean;
  created: number;
  delivery_estimate: { minimum: DeliveryEstimateBound | null; maximum: DeliveryEstimateBound | null } | null;
  display_name: string;
  fixed_amount: { amount: number; currency: string };
  livemode: false;
  metadata: Record<string, string>;
  tax_behavior: 'unspecified';
  tax_code: null;
  type: 'fixed_amount';
}

export interface CustomerDetailsRecord {
  address: null;
  email: string | null;
  name: string | null;
  phone: string | null;
  tax_exempt: 'none';
  tax_ids: [];
}

export interface PaymentIntentRecord {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  created: number;
  currency: string;
  description: string | null;
  livemode: false;
  metadata: Record<string, string>;
  payment_method_types: string[];
  receipt_email: string | null;
  status: 'processing' | 'succeeded' | 'requires_payment_method';
}

/**
 * A stored Checkout Session: the object `GET /v1/checkout/sessions/:id` answers, with
 * `line_items` always filled in, as `expand[]=line_items` would show it. The API and webhook
 * events leave `line_items` out unless expanded, exactly like Stripe.
 */
export interface CheckoutSessionRecord {
  id: string;
  object: 'checkout.session';
  after_expiration: null;
  allow_promotion_codes: null;
  amount_subtotal: number;
  amount_total: number;
  automatic_tax: { enabled: false; liability: null; provider: null; status: null };
  billing_address_collection: null;
  cancel_url: string | null;
  client_reference_id: string | null;
  client_secret: null;
  collected_information: { business_name: null; individual_name: null; shipping_details: null } | null;
  created: number;
  currency: string;
  custom_fields: [];
  custom_text: {
    after_submit: null;
    shipping_address: null;
    submit: { message: string } | null;
    terms_of_service_acceptance: null;
  };
  customer: null;
  customer_creation: 'if_required';
  customer_details: CustomerDetailsRecord | null;
  customer_email: string | null;
  discounts: [];
  expires_at: number;
  invoice: null;
  line_items: ListRecord<LineItemRecord>;
  livemode: false;
  locale: string | null;
  metadata: Record<string, string>;
  mode: 'payment';
  /** Set when the customer pays (for delayed methods: when they submit). */
  payment_intent: string | null;
  payment_link: null;
  payment_method_collection: 'if_required';
  payment_method_types: string[];
  payment_status: SessionPaymentStatus;
  phone_number_collection: { enabled: false };
  recovered_from: null;
  setup_intent: null;
  shipping_address_collection: null;
  shipping_cost: {
    amount_subtotal: number;
    amount_tax: number;
    amount_total: number;
    shipping_rate: string;
  } | null;
  shipping_options: Array<{ shipping_amount: number; shipping_rate: string }>;
  status: SessionStatus;
  submit_type: null;
  subscription: null;
  success_url: string | null;
  total_details: { amount_discount: number; amount_shipping: number; amount_tax: number };
  ui_mode: 'hosted_page';
  url: string | null;
}

/** A session as the API sends it: `line_items` only when expanded, `payment_intent` maybe expanded. */
export type CheckoutSessionJson = Omit<CheckoutSessionRecord, 'line_items' | 'payment_intent'> & {
  line_items?: ListRecord<LineItemRecord>;
  payment_intent: string | PaymentIntentRecord | null;
};
