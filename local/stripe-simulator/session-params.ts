import { invalidRequest, missingParameter, resourceMissing } from './errors';
import type { FormObject } from './form-body';
import { checkParams, list, metadata, object, ParamReader, text } from './params';
import type { DeliveryEstimateBound } from './session-types';

/** The parameters of `POST /v1/checkout/sessions` that the simulator understands; anything else is refused. */
const CREATE_SESSION_PARAMS = {
  mode: text,
  currency: text,
  line_items: list(
    object({
      price: text,
      price_data: object({
        currency: text,
        unit_amount: text,
        product_data: object({ name: text, description: text, metadata }),
      }),
      quantity: text,
    }),
  ),
  shipping_options: list(
    object({
      shipping_rate: text,
      shipping_rate_data: object({
        type: text,
        fixed_amount: object({ amount: text, currency: text }),
        display_name: text,
        delivery_estimate: object({
          minimum: object({ unit: text, value: text }),
          maximum: object({ unit: text, value: text }),
        }),
        metadata,
      }),
    }),
  ),
  customer_email: text,
  locale: text,
  client_reference_id: text,
  metadata,
  payment_intent_data: object({ metadata, description: text }),
  expires_at: text,
  success_url: text,
  cancel_url: text,
  custom_text: object({ submit: object({ message: text }) }),
  expand: list(text),
};

// Checkout's supported locales; a space-separated list keeps the formatter from spreading it over 40 lines.
const LOCALES = (
  'auto bg cs da de el en en-GB es es-419 et fi fil fr fr-CA hi-IN hr hu id it ja ko lt lv ms mt nb nl pl pt ' +
  'pt-BR ro ru sk sl sv th tr vi zh zh-HK zh-TW'
).split(' ');
const DELIVERY_UNITS = ['business_day', 'day', 'hour', 'month', 'week'] as const;
const KNOWN_CURRENCIES = new Set(Intl.supportedValuesOf('currency').map((code) => code.toLowerCase()));

export const EXPIRY_WINDOW_SECONDS = { min: 30 * 60, max: 24 * 60 * 60 } as const;

export interface LineItemInput {
  name: string;
  description: string | null;
  productMetadata: Record<string, string>;
  currency: string;
  unitAmount: number;
  quantity: number;
}

export interface ShippingRateInput {
  displayName: string;
  amount: number;
  currency: string;
  deliveryEstimate: { minimum: DeliveryEstimateBound | null; maximum: DeliveryEstimateBound | null } | null;
  metadata: Record<string, string>;
}

export interface CreateSessionInput {
  currency: string;
  lineItems: LineItemInput[];
  shippingRate: ShippingRateInput | null;
  customerEmail: string | null;
  locale: string | null;
  clientReferenceId: string | null;
  metadata: Record<string, string>;
  paymentIntent: { metadata: Record<string, string>; description: string | null };
  expiresAt: number;
  successUrl: string | null;
  cancelUrl: string | null;
  submitMessage: string | null;
  expand: string[];
}

/** Validates a create request the way Stripe does: unknown parameters first, then each value. */
export function parseCreateSessionParams(form: FormObject, now: number): CreateSessionInput {
  checkParams(form, CREATE_SESSION_PARAMS);
  const params = new ParamReader(form);

  const mode = params.requiredString('mode');
  if (mode === 'setup' || mode === 'subscription') {
    throw invalidRequest(`The Stripe simulator supports only mode=payment, not mode=${mode}.`, {
      param: 'mode',
    });
  }
  if (mode !== 'payment') {
    throw invalidRequest('Invalid mode: must be one of payment, setup or subscription', { param: 'mode' });
  }

  const sessionCurrency = readCurrency(params, 'currency');
  const lineItems = params.objects('line_items').map(readLineItem);
  if (lineItems.length === 0) throw missingParameter('line_items');
  const currency = sessionCurrency ?? lineItems[0]?.currency ?? 'gbp';
  lineItems.forEach((item, index) => {
    if (item.currency !== currency) {
      throw invalidRequest(
        `All line items must use the same currency: line item ${index} is in ${item.currency}, but the session is in ${currency}.`,
        { param: `line_items[${index}][price_data][currency]` },
      );
    }
  });

  const shippingOptions = params.objects('shipping_options');
  if (shippingOptions.length > 1) {
    throw invalidRequest('The Stripe simulator supports at most 1 shipping option.', {
      param: 'shipping_options',
    });
  }
  const shippingRate =
    shippingOptions[0] === undefined ? null : readShippingOption(shippingOptions[0], currency);

  const paymentIntentData = params.object('payment_intent_data');
  return {
    currency,
    lineItems,
    shippingRate,
    customerEmail: readEmail(params, 'customer_email'),
    locale: params.oneOf('locale', LOCALES) ?? null,
    clientReferenceId: params.string('client_reference_id', { maxLength: 200 }) ?? null,
    metadata: params.metadata('metadata'),
    paymentIntent: {
      metadata: paymentIntentData?.metadata('metadata') ?? {},
      description: paymentIntentData?.string('description', { maxLength: 1000 }) ?? null,
    },
    expiresAt: readExpiresAt(params, now),
    successUrl: readUrl(params, 'success_url'),
    cancelUrl: readUrl(params, 'cancel_url'),
    submitMessage:
      params.object('custom_text')?.object('submit')?.requiredString('message', { maxLength: 1200 }) ?? null,
    expand: params.strings('expand'),
  };
}

function readLineItem(item: ParamReader): LineItemInput {
  const priceId = item.string('price');
  // The simulator keeps no Price objects, so every id is unknown, as an id from another account would be.
  if (priceId !== undefined) throw resourceMissing('price', priceId, item.param('price'), 400);
  const priceData = item.requiredObject('price_data');
  const product = priceData.requiredObject('product_data');
  return {
    name: product.requiredString('name', { maxLength: 5000 }),
    description: product.string('description', { maxLength: 40000 }) ?? null,
    productMetadata: product.metadata('metadata'),
    currency: requireCurrency(priceData, 'currency'),
    unitAmount: priceData.requiredInteger('unit_amount', { min: 1, max: 99_999_999 }),
    quantity: item.requiredInteger('quantity', { min: 1, max: 999 }),
  };
}

function readShippingOption(option: ParamReader, currency: string): ShippingRateInput {
  const rateId = option.string('shipping_rate');
  if (rateId !== undefined)
    throw resourceMissing('shipping_rate', rateId, option.param('shipping_rate'), 400);
  const data = option.requiredObject('shipping_rate_data');
  data.oneOf('type', ['fixed_amount'] as const);
  const fixedAmount = data.requiredObject('fixed_amount');
  const rateCurrency = requireCurrency(fixedAmount, 'currency');
  if (rateCurrency !== currency) {
    throw invalidRequest(
      `The shipping rate's currency (${rateCurrency}) must match the currency of the line items (${currency}).`,
      { param: fixedAmount.param('currency') },
    );
  }
  const estimate = data.object('delivery_estimate');
  return {
    displayName: data.requiredString('display_name', { maxLength: 100 }),
    amount: fixedAmount.requiredInteger('amount', { min: 0, max: 99_999_999 }),
    currency: rateCurrency,
    deliveryEstimate:
      estimate === undefined
        ? null
        : { minimum: readBound(estimate, 'minimum'), maximum: readBound(estimate, 'maximum') },
    metadata: data.metadata('metadata'),
  };
}

function readBound(estimate: ParamReader, key: string): DeliveryEstimateBound | null {
  const bound = estimate.object(key);
  if (bound === undefined) return null;
  const unit = bound.oneOf('unit', DELIVERY_UNITS);
  if (unit === undefined) throw missingParameter(bound.param('unit'));
  return { unit, value: bound.requiredInteger('value', { min: 1 }) };
}

function readCurrency(params: ParamReader, key: string): string | undefined {
  const value = params.string(key)?.toLowerCase();
  if (value !== undefined && !KNOWN_CURRENCIES.has(value)) {
    throw invalidRequest(`Invalid currency: ${value}.`, {
      param: params.param(key),
      code: 'parameter_invalid',
    });
  }
  return value;
}

function requireCurrency(params: ParamReader, key: string): string {
  const value = readCurrency(params, key);
  if (value === undefined) throw missingParameter(params.param(key));
  return value;
}

function readEmail(params: ParamReader, key: string): string | null {
  const value = params.string(key, { maxLength: 800 });
  if (value === undefined) return null;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) {
    throw invalidRequest(`Invalid email address: ${value}`, { param: key, code: 'email_invalid' });
  }
  return value;
}

function readUrl(params: ParamReader, key: string): string | null {
  const value = params.string(key, { maxLength: 5000 });
  if (value === undefined) return null;
  if (!URL.canParse(value) || !['http:', 'https:'].includes(new URL(value).protocol)) {
    throw invalidRequest('Not a valid URL', { param: key, code: 'url_invalid' });
  }
  return value;
}

function readExpiresAt(params: ParamReader, now: number): number {
  const value = params.integer('expires_at');
  if (value === undefined) return now + EXPIRY_WINDOW_SECONDS.max;
  if (value < now + EXPIRY_WINDOW_SECONDS.min) {
    throw invalidRequest(
      'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.',
      {
        param: 'expires_at',
      },
    );
  }
  if (value > now + EXPIRY_WINDOW_SECONDS.max) {
    throw invalidRequest(
      'The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.',
      {
        param: 'expires_at',
      },
    );
  }
  return value;
}
