// What a merchant's Web Push message carries (ADR 0056): written by the Lambdas, read by the
// /admin service worker's push handler. Pure: no Node or DOM.

/** The events that push: a new paid order, a new order request, a Direct Debit the bank refused. */
export type MerchantPushKind = 'order' | 'request' | 'failedDebit';

export interface MerchantPushPayload {
  kind: MerchantPushKind;
  reference: string;
  title: string;
  body: string;
  /** Where a tap opens: the admin, on this record. */
  url: string;
}

/** The admin's address of one record: `/admin?order=<reference>`. */
export function adminOrderUrl(reference: string): string {
  return `/admin?order=${encodeURIComponent(reference)}`;
}

const TITLES: Record<MerchantPushKind, string> = {
  order: 'New order',
  request: 'New order request',
  failedDebit: 'Direct Debit failed',
};

/** The message of one event: short, as a lock screen shows it; the reference is the whole key. */
export function merchantPushPayload(
  kind: MerchantPushKind,
  reference: string,
  detail: string,
): MerchantPushPayload {
  return {
    kind,
    reference,
    title: TITLES[kind],
    body: `${reference}: ${detail}`,
    url: adminOrderUrl(reference),
  };
}

/**
 * The stage's VAPID key pair secret, as setup stores it and the functions read it:
 * `{"vapidPublicKey": "...", "vapidPrivateKey": "..."}` (base64url, as web-push makes them). Both
 * empty until setup runs: no pushes, the emails still go.
 */
export const VAPID_SECRET_JSON_KEYS = { publicKey: 'vapidPublicKey', privateKey: 'vapidPrivateKey' } as const;
