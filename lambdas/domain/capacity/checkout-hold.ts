import { DISPATCH_WINDOW_WEEKS, type IsoDate } from '../../../shared/dispatch';
import { reserveChange } from '../storage/capacity-changes';
import { limitFor } from '../storage/capacity-settings';
import type { CapacityStore } from '../storage/capacity-store';
import type { ClientHoldItems } from '../storage/capacity-table';
import type { CheckoutStore, ClientHoldWrite } from '../storage/checkout-store';
import type { ShopSettings } from '../storage/shop-settings';
import {
  CLIENT_HOLD_LIMIT,
  type CountedHold,
  clientHoldDeleteAfter,
  clientHoldEntry,
  clientHoldKeys,
  clientHoldsWith,
  type HoldingClient,
  openClientHolds,
  TooManyOpenHoldsError,
} from './client-holds';
import { CapacityFullError, comingDispatchDays, holdBottles, type Reservation } from './holds';

// A checkout's hold in one transaction (ADR 0052): the day's reservation, the client's count, and a check
// that the (cached) settings still hold. Most take one round trip, no read; a refusal, a read and a retry.

/** The settings changed since they were read (a pause, another mode, the day's limit): nothing was held. */
export class SettingsChangedError extends Error {
  constructor() {
    super('The shop settings changed since they were read');
    this.name = 'SettingsChangedError';
  }
}

export interface CheckoutHoldDeps {
  writes: CheckoutStore;
  capacity: Pick<CapacityStore, 'read'>;
  clientItems: Pick<ClientHoldItems, 'read'>;
  now: Date;
}

/** Tries of one day's transaction that other writes keep coming first to. */
const ATTEMPTS = 5;

/**
 * Reserves on the first day from `from` with room and counts the client's hold, in one transaction per day
 * while `settings` still hold. A refused day is read to tell this attempt's earlier hold (a retry) from a
 * full day.
 * @throws SettingsChangedError when the settings changed: read them again.
 * @throws TooManyOpenHoldsError when the client already has CLIENT_HOLD_LIMIT open holds (nothing held).
 * @throws CapacityFullError when no day within DISPATCH_WINDOW_WEEKS has room.
 */
export async function holdCheckoutBottles(
  deps: CheckoutHoldDeps,
  request: { from: IsoDate; hold: string; settings: ShopSettings; client?: HoldingClient | undefined },
): Promise<Reservation> {
  const { hold } = request;
  const bottles = holdBottles(hold);
  const keys = request.client ? clientHoldKeys(request.client) : [];
  // A client item is read only once its one-more-entry condition failed (at or over the limit).
  const readItems = new Map<string, Awaited<ReturnType<ClientHoldItems['read']>>>();
  for (const date of comingDispatchDays(request.from, DISPATCH_WINDOW_WEEKS)) {
    const limit = limitFor(request.settings.capacity, date);
    if (limit !== undefined && limit < bottles) continue;
    for (let attempt = 1; ; attempt += 1) {
      const clients = await clientWrites(deps, keys, readItems, { date, hold });
      const refusal = await deps.writes.reserve({
        settings: request.settings,
        day: { date, change: reserveChange(hold, bottles, limit) },
        clients,
      });
      if (refusal === undefined) return { date, hold, added: true };
      if (refusal.settingsChanged) throw new SettingsChangedError();
      if (attempt >= ATTEMPTS) throw new Error(`Could not hold ${hold}: other writes kept coming first`);
      for (const pk of refusal.clientsRefused) readItems.set(pk, await deps.clientItems.read(pk));
      if (refusal.dayRefused) {
        const day = await deps.capacity.read(date);
        if (day.holds.has(hold) || day.sales.has(hold)) return { date, hold, added: false };
        break;
      }
      // Another transaction on one of the items: again, after a moment's jitter.
      if (refusal.conflict) await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    }
  }
  throw new CapacityFullError(request.from, bottles);
}

/** Each client item's write: one more entry without a read, or, once read, its entries replaced. */
async function clientWrites(
  deps: Pick<CheckoutHoldDeps, 'capacity' | 'now'>,
  keys: readonly string[],
  readItems: ReadonlyMap<string, Awaited<ReturnType<ClientHoldItems['read']>>>,
  counted: CountedHold,
): Promise<ClientHoldWrite[]> {
  const writes: ClientHoldWrite[] = [];
  for (const pk of keys) {
    const item = readItems.get(pk);
    if (item === undefined) {
      writes.push({
        pk,
        kind: 'add',
        entry: clientHoldEntry(counted),
        limit: CLIENT_HOLD_LIMIT,
        deleteAfter: clientHoldDeleteAfter(counted.hold, deps.now),
      });
      continue;
    }
    const open = await openClientHolds(deps, item, counted.hold);
    if (open === 'counted') continue;
    if (open.length >= CLIENT_HOLD_LIMIT) throw new TooManyOpenHoldsError(CLIENT_HOLD_LIMIT);
    writes.push({ pk, kind: 'replace', version: item.version, ...clientHoldsWith(open, counted, deps.now) });
  }
  return writes;
}
