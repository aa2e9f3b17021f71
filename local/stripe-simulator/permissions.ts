import { StripeApiError } from './errors';

/**
 * The permissions of a Stripe restricted key (`rk_…`) that the simulator's endpoints need, as
 * Stripe names them in its refusals (`rak_<resource>_<read|write>`). Write includes read, as in
 * the Dashboard's key editor.
 */
export type StripePermission =
  | 'checkout_session_read'
  | 'checkout_session_write'
  | 'payment_intent_read'
  | 'charge_read'
  | 'refund_read'
  | 'refund_write'
  | 'webhook_endpoint_read'
  | 'webhook_endpoint_write'
  | 'account_read'
  | 'customer_read'
  | 'customer_write'
  | 'subscription_read'
  | 'subscription_write'
  | 'invoice_read'
  | 'test_clock_read'
  | 'test_clock_write';

/** Restricted keys and what each may do; a key not listed (and every `sk_` key) may do everything. */
export type RestrictedKeys = Readonly<Record<string, readonly StripePermission[]>>;

/** The account the simulator pretends to be, named in its permission refusals as Stripe names the account. */
export const ACCOUNT_ID = 'acct_simulator';

/**
 * Refuses a listed restricted key that lacks `needed` with Stripe's 403 (the SDK's
 * StripePermissionError), before the endpoint looks at its parameters, as Stripe does.
 */
export function requirePermission(
  restrictedKeys: RestrictedKeys,
  key: string,
  needed: StripePermission,
): void {
  const granted = restrictedKeys[key];
  if (granted === undefined) return;
  const write = needed.replace(/_read$/, '_write');
  if (granted.includes(needed) || granted.some((permission) => permission === write)) return;
  const masked = `${key.slice(0, 8)}${'*'.repeat(Math.max(key.length - 12, 4))}${key.slice(-4)}`;
  throw new StripeApiError(403, {
    type: 'invalid_request_error',
    message:
      `The provided key '${masked}' does not have the required permissions for this endpoint on account ` +
      `'${ACCOUNT_ID}'. Having the 'rak_${needed}' permission would allow this request to continue.`,
  });
}
