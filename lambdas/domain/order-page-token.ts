import { createCipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

// The order page's link token (docs/decisions/0037-order-page-link.md): session id and page key, sealed with
// SIV (the IV is the plaintext's HMAC) under the order-page secret: one stable link per order, no index
// needed, and a guessed or altered token fails before any read.

/** Any token that does not open a page: the handler answers the one plain 404, whatever the cause. */
export class OrderPageNotFoundError extends Error {
  constructor() {
    super('No order page for this token');
    this.name = 'OrderPageNotFoundError';
  }
}

/** Bytes of the random page key stored on the order (128 bits). */
const PAGE_KEY_BYTES = 16;
/** Bytes of the synthetic IV, which is also the token's MAC (HMAC-SHA256 cut to 128 bits). */
const SIV_BYTES = 16;
/** A Checkout Session id as Stripe (and the simulator) writes it. */
const SESSION_ID = /^cs_(test|live)_[A-Za-z0-9]{1,200}$/;
/** A subscription id: a standing order's own page (ADR 0059) is named by its subscription. */
const SUBSCRIPTION_ID = /^sub_[A-Za-z0-9]{1,200}$/;

/** Whether an id is one a token may name: an order's Checkout Session, or a standing order's subscription. */
function isPageId(id: string): boolean {
  return SESSION_ID.test(id) || SUBSCRIPTION_ID.test(id);
}

/** The two keys the secret gives: one to encrypt, one to authenticate, never the same. */
export interface OrderPageKeys {
  readonly encryption: Buffer;
  readonly mac: Buffer;
}

/**
 * Derives the token's keys from the order-page secret (HKDF-SHA256), once per cold start.
 * @throws Error for a secret shorter than 32 characters: a weak key would make links guessable.
 */
export function orderPageKeys(secret: string): OrderPageKeys {
  if (secret.length < 32) throw new Error('The order-page secret must be at least 32 characters');
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', secret, '', info, 32));
  return { encryption: derive('order-page-token/aes-256-ctr'), mac: derive('order-page-token/hmac') };
}

/** A new random page key for an order, as the order item stores it (base64url, 22 characters). */
export function newPageKey(): string {
  return randomBytes(PAGE_KEY_BYTES).toString('base64url');
}

function syntheticIv(keys: OrderPageKeys, plaintext: Buffer): Buffer {
  return createHmac('sha256', keys.mac).update('v1').update(plaintext).digest().subarray(0, SIV_BYTES);
}

function ctr(keys: OrderPageKeys, iv: Buffer, data: Buffer): Buffer {
  const cipher = createCipheriv('aes-256-ctr', keys.encryption, iv);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

/** An order's (a session id) or standing order's (a subscription id) token: stable per id and key, opaque. */
export function orderPageToken(sessionId: string, pageKey: string, keys: OrderPageKeys): string {
  const key = Buffer.from(pageKey, 'base64url');
  if (key.length !== PAGE_KEY_BYTES || !isPageId(sessionId)) {
    throw new Error('orderPageToken: not an order page key or session id');
  }
  const plaintext = Buffer.concat([key, Buffer.from(sessionId, 'utf8')]);
  const iv = syntheticIv(keys, plaintext);
  return Buffer.concat([iv, ctr(keys, iv, plaintext)]).toString('base64url');
}

/** What a genuine token names: the order's session id, and the page key it was made with. */
export interface OrderPageClaim {
  sessionId: string;
  pageKey: string;
}

/**
 * Opens an order's token; `undefined` for anything not made with these keys (tampered, guessed, another
 * secret, spelt otherwise) and for a standing order's. A genuine token may be revoked: see samePageKey.
 */
export function readOrderPageToken(token: string, keys: OrderPageKeys): OrderPageClaim | undefined {
  const claim = readPageToken(token, keys);
  return claim?.kind === 'order' ? { sessionId: claim.sessionId, pageKey: claim.pageKey } : undefined;
}

/** What a genuine token names: an order's session, or a standing order's subscription; and its page key. */
export type PageClaim =
  | { kind: 'order'; sessionId: string; pageKey: string }
  | { kind: 'standing-order'; subscriptionId: string; pageKey: string };

/** Opens any page's token (an order's or a standing order's), as {@link readOrderPageToken} does. */
export function readPageToken(token: string, keys: OrderPageKeys): PageClaim | undefined {
  if (!/^[A-Za-z0-9_-]{40,400}$/.test(token)) return undefined;
  const bytes = Buffer.from(token, 'base64url');
  // Node decodes the last character leniently (its unused low bits ignored), so one token has up to
  // 16 spellings; only the one we write opens the page. Both sides are the caller's own: no secret to time.
  if (bytes.toString('base64url') !== token) return undefined;
  if (bytes.length <= SIV_BYTES + PAGE_KEY_BYTES) return undefined;
  const iv = bytes.subarray(0, SIV_BYTES);
  const plaintext = ctr(keys, iv, bytes.subarray(SIV_BYTES));
  if (!timingSafeEqual(iv, syntheticIv(keys, plaintext))) return undefined;
  const id = plaintext.subarray(PAGE_KEY_BYTES).toString('utf8');
  const pageKey = plaintext.subarray(0, PAGE_KEY_BYTES).toString('base64url');
  if (SESSION_ID.test(id)) return { kind: 'order', sessionId: id, pageKey };
  if (SUBSCRIPTION_ID.test(id)) return { kind: 'standing-order', subscriptionId: id, pageKey };
  return undefined;
}

/** Whether a token's page key is the order's current one, in constant time. */
export function samePageKey(stored: string | undefined, claimed: string): boolean {
  if (stored === undefined) return false;
  const a = Buffer.from(stored, 'base64url');
  const b = Buffer.from(claimed, 'base64url');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The order page's address on the shop's own origin. */
export function orderPageUrl(siteUrl: string, token: string): string {
  return `${siteUrl}/order/${token}`;
}

/** An order's page link when it has a page key; a standing order's delivery links to its own page. */
export interface OrderPageLinks {
  linkFor(order: {
    sessionId: string;
    pageKey?: string | undefined;
    subscriptionId?: string | undefined;
    standingPageKey?: string | undefined;
  }): string | undefined;
}

/** The links of one shop: its origin and its keys. */
export function orderPageLinks(siteUrl: string, keys: OrderPageKeys): OrderPageLinks {
  return {
    linkFor: (order) => {
      if (order.subscriptionId !== undefined) {
        return order.standingPageKey === undefined
          ? undefined
          : orderPageUrl(siteUrl, orderPageToken(order.subscriptionId, order.standingPageKey, keys));
      }
      return order.pageKey === undefined
        ? undefined
        : orderPageUrl(siteUrl, orderPageToken(order.sessionId, order.pageKey, keys));
    },
  };
}
