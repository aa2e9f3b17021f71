import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSessionSchema } from '../../../local/stripe-simulator/params';
import { shopSessionParams } from './support';

/** Every leaf parameter a schema accepts, in bracket notation with `[]` for arrays. */
function acceptedPaths(schema: z.core.$ZodType, prefix = ''): string[] {
  if (schema instanceof z.ZodObject) {
    return Object.entries(schema.shape).flatMap(([key, value]: [string, z.core.$ZodType]) =>
      acceptedPaths(value, prefix === '' ? key : `${prefix}[${key}]`),
    );
  }
  if (schema instanceof z.ZodOptional) return acceptedPaths(schema.unwrap(), prefix);
  if (schema instanceof z.ZodArray) return acceptedPaths(schema.element, `${prefix}[]`);
  // A pipe reads its input with `in`, unless `in` only reshapes the raw value for `out`.
  if (schema instanceof z.ZodPipe) {
    return acceptedPaths(schema.in instanceof z.ZodTransform ? schema.out : schema.in, prefix);
  }
  return [prefix];
}

/** Every leaf parameter of a request; metadata is one parameter whatever its keys. */
function sentPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => sentPaths(item, `${prefix}[]`));
  if (typeof value === 'object' && value !== null && !/(^|\[)metadata\]?$/.test(prefix)) {
    return Object.entries(value).flatMap(([key, item]) =>
      sentPaths(item, prefix === '' ? key : `${prefix}[${key}]`),
    );
  }
  return value === undefined ? [] : [prefix];
}

const unique = (paths: string[]) => [...new Set(paths)].sort();

describe('POST /v1/checkout/sessions against what the shop sends', () => {
  it('accepts exactly the parameters create-checkout sends (plus expand), so drift on either side fails here', () => {
    const sent = unique(sentPaths(shopSessionParams()));
    const accepted = unique(acceptedPaths(createSessionSchema)).filter((path) => path !== 'expand[]');

    expect(accepted).toEqual(sent);
    expect(sent).toContain('line_items[][price_data][product_data][name]');
    expect(sent).toContain('shipping_options[][shipping_rate_data][fixed_amount][amount]');
  });

  it('would notice a parameter the shop starts sending', () => {
    const params: Stripe.Checkout.SessionCreateParams = {
      ...shopSessionParams(),
      phone_number_collection: { enabled: true },
    };

    const accepted = unique(acceptedPaths(createSessionSchema));

    expect(unique(sentPaths(params)).filter((path) => !accepted.includes(path))).toEqual([
      'phone_number_collection[enabled]',
    ]);
  });
});
