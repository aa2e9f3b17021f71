import { createHash } from 'node:crypto';
import type { IsoDate } from '../../../shared/dispatch';
import type { CapacityStore } from '../storage/capacity-store';
import type { ClientHoldItems } from '../storage/capacity-table';
import { CLIENT_HOLDS_KEY_PREFIX } from '../storage/orders-table';
import { addressGroup, clientGroup } from './client-identity';
import { holdExpiresAt } from './holds';

// Unpaid holds are free, so one client could take every dispatch day (eight 9-bottle checkouts held 8 weeks
// of a small shop): each client (CloudFront's viewer address, and the customer's email) holds at most
// CLIENT_HOLD_LIMIT open holds. One item per client and scope, `CLIENT_HOLDS#<scope>#<hash>`, holds their ids
// and a version; a checkout counts in its reservation's transaction (checkout-hold.ts), a request by an
// update conditional on the version read, so concurrent holds never overshoot. Nothing gives a hold back
// here: ids carry their expiry, and at the limit holds are looked up on their days. The TTL is cleanup only.

/** Open holds (unpaid checkouts, waiting order requests) one client may have at once. */
export const CLIENT_HOLD_LIMIT = 3;

/** A client over CLIENT_HOLD_LIMIT: nothing is held for this attempt. */
export class TooManyOpenHoldsError extends Error {
  constructor(readonly limit: number) {
    super(`The client already holds ${limit} open checkouts or requests`);
    this.name = 'TooManyOpenHoldsError';
  }
}

/** Who is asking: the customer's email address, and the viewer address when CloudFront passed one. */
export interface HoldingClient {
  email: string;
  viewer?: string | undefined;
}

/** A hold to count: its day and id (which carries its expiry). */
export interface CountedHold {
  date: IsoDate;
  hold: string;
}

/** Idle items are deleted (TTL) a day after their last hold's expiry: long after it counts. */
const ITEM_LIFETIME_SECONDS = 24 * 3600;

/** Attempts when other writes of the same client keep coming first. */
const ATTEMPTS = 5;

function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 32);
}

/** The items a client's holds are counted in: one per address, as request-notice-limits counts them. */
export function clientHoldKeys(client: HoldingClient): string[] {
  return [
    ...(client.viewer === undefined ? [] : [`viewer#${digest(clientGroup(client.viewer))}`]),
    `email#${digest(addressGroup(client.email))}`,
  ].map((name) => `${CLIENT_HOLDS_KEY_PREFIX}${name}`);
}

/** A hold's id without its expiry: a retry of the same attempt (even in the next window) counts once. */
function attemptOf(hold: string): string {
  return hold.replace(/(\.\d{9,11})?:\d+$/, '');
}

/** A hold as its client's item lists it: `<day>/<hold id>`. */
export function clientHoldEntry(counted: CountedHold): string {
  return `${counted.date}/${counted.hold}`;
}

function parseEntry(value: string): CountedHold | undefined {
  const slash = value.indexOf('/');
  return slash < 0 ? undefined : { date: value.slice(0, slash), hold: value.slice(slash + 1) };
}

/**
 * Counts `counted` against each limit, or refuses it; its bottles must already be held (the caller gives them
 * back on a refusal). @throws TooManyOpenHoldsError when the client already has CLIENT_HOLD_LIMIT open holds.
 */
export async function countClientHold(
  deps: { items: ClientHoldItems; capacity: Pick<CapacityStore, 'read'>; now: Date },
  client: HoldingClient,
  counted: CountedHold,
): Promise<void> {
  for (const pk of clientHoldKeys(client)) {
    if (!(await countIn(deps, pk, counted))) throw new TooManyOpenHoldsError(CLIENT_HOLD_LIMIT);
  }
}

async function countIn(
  deps: { items: ClientHoldItems; capacity: Pick<CapacityStore, 'read'>; now: Date },
  pk: string,
  counted: CountedHold,
): Promise<boolean> {
  for (let tries = 0; tries < ATTEMPTS; tries += 1) {
    const item = await deps.items.read(pk);
    const open = await openClientHolds(deps, item, counted.hold);
    if (open === 'counted') return true;
    if (open.length >= CLIENT_HOLD_LIMIT) return false;
    const { holds, deleteAfter } = clientHoldsWith(open, counted, deps.now);
    if (await deps.items.replace(pk, holds, item.version, deleteAfter)) return true;
  }
  throw new Error(`Could not count a hold in ${pk}: other writes kept coming first`);
}

/**
 * A client's holds that still count: not lapsed and, at the limit, still held on their days. 'counted' when
 * `hold`'s attempt is one of them: a retry never counts twice.
 */
export async function openClientHolds(
  deps: { capacity: Pick<CapacityStore, 'read'>; now: Date },
  item: { holds: ReadonlySet<string> },
  hold: string,
): Promise<CountedHold[] | 'counted'> {
  const nowSeconds = Math.floor(deps.now.getTime() / 1000);
  const attempt = attemptOf(hold);
  const entries = [...item.holds].flatMap((value) => {
    const parsed = parseEntry(value);
    return parsed === undefined ? [] : [parsed];
  });
  if (entries.some((held) => attemptOf(held.hold) === attempt)) return 'counted';
  const open = entries.filter((held) => (holdExpiresAt(held.hold) ?? 0) > nowSeconds);
  return open.length >= CLIENT_HOLD_LIMIT ? stillHeld(deps.capacity, open) : open;
}

/** The item's entries with `counted` added to `open`, and when the item may be deleted. */
export function clientHoldsWith(
  open: readonly CountedHold[],
  counted: CountedHold,
  now: Date,
): { holds: ReadonlySet<string>; deleteAfter: number } {
  const kept = [...open, counted];
  return {
    holds: new Set(kept.map(clientHoldEntry)),
    deleteAfter: Math.max(...kept.map((held) => clientHoldDeleteAfter(held.hold, now))),
  };
}

/** When an item whose last hold is `hold` may be deleted (TTL, epoch seconds). */
export function clientHoldDeleteAfter(hold: string, now: Date): number {
  return (holdExpiresAt(hold) ?? Math.floor(now.getTime() / 1000)) + ITEM_LIFETIME_SECONDS;
}

/** Of `holds`, those still held on their days: not paid (sold), released or given back. */
async function stillHeld(
  capacity: Pick<CapacityStore, 'read'>,
  holds: CountedHold[],
): Promise<CountedHold[]> {
  const days = new Map<IsoDate, ReadonlySet<string>>();
  for (const date of new Set(holds.map((held) => held.date)))
    days.set(date, (await capacity.read(date)).holds);
  return holds.filter((held) => days.get(held.date)?.has(held.hold) === true);
}
