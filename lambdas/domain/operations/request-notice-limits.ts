import { createHash } from 'node:crypto';
import { londonDate } from '../../../shared/dispatch';
import { addressGroup, clientGroup } from '../capacity/client-identity';
import { countUnnotified, holdCounter, takeFromCounter, takeUnnotified } from '../storage/notice-counters';
import type { ShopTable } from '../storage/orders-table';

// Requests mode takes orders from anyone, unpaid, on an open endpoint. So that a flood of requests
// cannot become a flood of email (to an address the sender chose, or to the merchant until SES's
// quota runs out and order confirmations stop too):
// - the customer is emailed nothing when a request is recorded; only the merchant's answer
//   (request-payment, decline) emails them;
// - the merchant's notice of a request is limited per clock hour (UTC): per client, per customer
//   address and for the whole shop (NOTICE_LIMITS). Each limit is one counter item per scope and
//   hour in the orders table, taken with one conditional `ADD` (`count < limit`), so concurrent
//   requests never overshoot and nothing else is needed; a TTL attribute lets DynamoDB delete the
//   counters afterwards (cleanup only: the hour is in the key, so an undeleted counter is never read);
// - the limits are taken narrowest first (client, address, shop), so a flooding client spends its
//   own allowance before it can touch a victim's address or the shop's;
// - a request over a limit is recorded all the same (`orders list` shows it) without a notice of
//   its own; the shop counts these, and the next notice that goes out says how many came since when.

/** Merchant notices of order requests per clock hour (UTC), by what sent the request. */
export const NOTICE_LIMITS = {
  /** One client (an IPv4 address, or an IPv6 /64: one home or one server). */
  perClient: 5,
  /** One customer address (letter case and a `+tag` ignored). */
  perAddress: 1,
  /** The whole shop, whoever sends: what bounds a flood from many clients. */
  perShop: 20,
} as const;

/** Which limit kept a request's notice back. */
export type NoticeLimitScope = 'client' | 'address' | 'shop';

/** Requests recorded without a notice of their own, since when: told in the next notice. */
export interface UnnotifiedRequests {
  count: number;
  since: string;
}

/**
 * `notify`: send this request's notice, and tell the merchant about the requests before it that
 * had none (`unnotified`). Otherwise the limit that was reached; the request is counted instead.
 */
export type NoticeDecision =
  | { notify: true; unnotified: UnnotifiedRequests | undefined }
  | { notify: false; limitedBy: NoticeLimitScope };

/**
 * Decides whether the merchant is notified of a new order request, taking one notice from each
 * limit (client, then address, then shop) this clock hour. Over a limit, the request is added to
 * the unnotified count instead; within all three, that count is taken (and reset) for this notice.
 * A request whose write then fails has used its allowance: the limits err towards fewer emails.
 */
export async function decideRequestNotice(
  table: ShopTable,
  request: { email: string; client: string },
  now: Date,
): Promise<NoticeDecision> {
  const limits: ReadonlyArray<readonly [NoticeLimitScope, string, number]> = [
    ['client', digest(clientGroup(request.client)), NOTICE_LIMITS.perClient],
    ['address', digest(addressGroup(request.email)), NOTICE_LIMITS.perAddress],
    ['shop', 'all', NOTICE_LIMITS.perShop],
  ];
  for (const [scope, subject, limit] of limits) {
    if (
      !(await takeFromCounter(table, `${scope}#${now.toISOString().slice(0, 13)}#${subject}`, limit, now))
    ) {
      await countUnnotified(table, now);
      return { notify: false, limitedBy: scope };
    }
  }
  return { notify: true, unnotified: await takeUnnotified(table) };
}

export { addressGroup, clientGroup };

/** Keys hold a hash, so the counters keep no customer's address and no client's IP. */
function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 32);
}

/**
 * Whether the decline of `request` may email its customer: one decline email per customer address
 * (letter case and a `+tag` ignored) per London day, whoever's requests carry it, since anyone can
 * type a stranger's address into many requests and the merchant may decline them all at once. The
 * first request to ask holds the day's email for that address (one conditional write, so concurrent
 * declines cannot both take it); asking again for the same request keeps it, so a decline whose
 * send failed can retry. `false`: the address was emailed a decline today for another request.
 */
export async function takeDeclineEmail(
  table: ShopTable,
  request: { email: string; reference: string },
  now: Date,
): Promise<boolean> {
  const name = `decline#${londonDate(now)}#${digest(addressGroup(request.email))}`;
  return holdCounter(table, name, request.reference, now);
}
