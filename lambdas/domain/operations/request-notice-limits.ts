import { createHash } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { londonDate } from '../../../shared/dispatch';
import { addressGroup, clientGroup } from '../capacity/client-identity';
import { conditionalWrite, updateIf } from '../storage/conditional-writes';
import { itemKey, NOTICE_LIMIT_KEY_PREFIX, type ShopTable, TTL_ATTRIBUTE } from '../storage/orders-table';

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

/** The one item counting requests recorded without a notice since the last notice went out. */
const UNNOTIFIED_KEY = `${NOTICE_LIMIT_KEY_PREFIX}unnotified`;

/** Counters are deleted (TTL) a day after they are last written: long after their hour. */
const COUNTER_LIFETIME_SECONDS = 24 * 3600;

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
    if (!(await takeFromLimit(table, `${scope}#${now.toISOString().slice(0, 13)}#${subject}`, limit, now))) {
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

/** One notice from the counter `name` (`count < limit`, then `count + 1`): `false` when none is left. */
function takeFromLimit(table: ShopTable, name: string, limit: number, now: Date): Promise<boolean> {
  return updateIf(table, `${NOTICE_LIMIT_KEY_PREFIX}${name}`, {
    ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
    UpdateExpression: 'ADD #count :one SET #ttl = :deleteAfter',
    ExpressionAttributeNames: { '#count': 'count', '#ttl': TTL_ATTRIBUTE },
    ExpressionAttributeValues: {
      ':one': 1,
      ':limit': limit,
      ':deleteAfter': Math.floor(now.getTime() / 1000) + COUNTER_LIFETIME_SECONDS,
    },
  });
}

async function countUnnotified(table: ShopTable, now: Date): Promise<void> {
  await updateIf(table, UNNOTIFIED_KEY, {
    UpdateExpression: 'ADD #count :one SET #since = if_not_exists(#since, :now)',
    ExpressionAttributeNames: { '#count': 'count', '#since': 'since' },
    ExpressionAttributeValues: { ':one': 1, ':now': now.toISOString() },
  });
}

const unnotifiedSchema = z.object({
  count: z.number().check(z.int(), z.positive()),
  since: z.iso.datetime(),
});

/**
 * Takes the unnotified count for the notice about to go out, resetting it in the same update: a
 * request counted meanwhile is either in this notice or left for the next, never both or neither.
 */
async function takeUnnotified(table: ShopTable): Promise<UnnotifiedRequests | undefined> {
  let taken: Record<string, unknown> | undefined;
  await conditionalWrite(async () => {
    const { Attributes } = await table.client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: itemKey(UNNOTIFIED_KEY),
        ConditionExpression: 'attribute_exists(#count)',
        UpdateExpression: 'REMOVE #count, #since',
        ExpressionAttributeNames: { '#count': 'count', '#since': 'since' },
        ReturnValues: 'ALL_OLD',
      }),
    );
    taken = Attributes;
  });
  const parsed = unnotifiedSchema.safeParse(taken);
  return parsed.success ? parsed.data : undefined;
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
  return updateIf(table, `${NOTICE_LIMIT_KEY_PREFIX}${name}`, {
    ConditionExpression: 'attribute_not_exists(#holder) OR #holder = :reference',
    UpdateExpression: 'SET #holder = :reference, #ttl = :deleteAfter',
    ExpressionAttributeNames: { '#holder': 'heldBy', '#ttl': TTL_ATTRIBUTE },
    ExpressionAttributeValues: {
      ':reference': request.reference,
      // Two days: the London day in the key may end up to a day after `now`'s UTC one.
      ':deleteAfter': Math.floor(now.getTime() / 1000) + 2 * COUNTER_LIFETIME_SECONDS,
    },
  });
}
