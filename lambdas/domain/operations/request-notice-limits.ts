import { createHash } from 'node:crypto';
import { londonDate } from '../../../shared/dispatch';
import { addressGroup, clientGroup } from '../capacity/client-identity';
import { countUnnotified, holdCounter, takeFromCounter, takeUnnotified } from '../storage/notice-counters';
import type { ShopTable } from '../storage/orders-table';

// Requests mode takes unpaid orders from anyone on an open endpoint, so a flood of requests must not become a
// flood of email (to an address the sender chose, or to the merchant until SES's quota stops confirmations
// too). The customer is emailed nothing until the merchant answers; the merchant's notices are limited per
// UTC hour per client, address and shop (NOTICE_LIMITS), narrowest first so a flooding client spends its own
// allowance first. Each limit is one counter item per scope and hour taken by one conditional `ADD` (never
// overshoots); the TTL only cleans up, as the hour is in the key. A request over a limit is recorded without
// a notice, and counted for the next.

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

/** `notify`: send it, telling of the `unnotified` requests before it; else the limit reached, counted. */
export type NoticeDecision =
  | { notify: true; unnotified: UnnotifiedRequests | undefined }
  | { notify: false; limitedBy: NoticeLimitScope };

/**
 * Takes one notice from each limit (client, address, shop) this hour; over one, the request joins the
 * unnotified count, else that count is taken for this notice. A request whose write then fails has used its
 * allowance: the limits err towards fewer emails.
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

/** Keys hold a hash, so the counters keep no customer's address and no client's IP. */
function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 32);
}

/**
 * One decline email per customer address (case and `+tag` ignored) per London day, whoever's requests carry
 * it: anyone can type a stranger's address into many requests, and the merchant may decline them all at once.
 * The first request to ask holds the day's email (one conditional write); asking again for it keeps it, so a
 * failed send can retry.
 */
export async function takeDeclineEmail(
  table: ShopTable,
  request: { email: string; reference: string },
  now: Date,
): Promise<boolean> {
  const name = `decline#${londonDate(now)}#${digest(addressGroup(request.email))}`;
  return holdCounter(table, name, request.reference, now);
}
