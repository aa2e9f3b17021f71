import type { IsoDate } from '../../../shared/dispatch';
import type { CapacitySettings } from '../storage/capacity-settings';
import type { CapacityStore } from '../storage/capacity-store';
import {
  holdId,
  paymentLinkReservationId,
  releaseHold,
  requestReservationId,
  reserveBottles,
  transferHold,
} from './holds';

// A request's bottles are held under its own id, then under its payment link's (carrying the link's expiry),
// so a link's events never touch another link's bottles.

/** What of a request these functions read: as stored (lambdas/domain/storage/order-request.ts). */
export interface RequestForCapacity {
  reference: string;
  bottles: number;
  dispatchDate: IsoDate;
  checkoutExpiresAt?: string | undefined;
  /** Until when the request's own hold lasts; absent: it holds nothing of its own, or was recorded before requests lapsed. */
  holdsUntil?: string | undefined;
}

/** The hold a request takes when it is recorded (its `holdsUntil` is in the id, so it lapses by itself). */
export function requestHold(
  request: Pick<RequestForCapacity, 'reference' | 'bottles' | 'holdsUntil'>,
): string {
  const until =
    request.holdsUntil === undefined ? undefined : Math.floor(Date.parse(request.holdsUntil) / 1000);
  return holdId(requestReservationId(request.reference, until), request.bottles);
}

/** Whether a request's own hold is past its time: the reconciler gives it back (or already has). */
export function requestHoldLapsed(request: Pick<RequestForCapacity, 'holdsUntil'>, now: Date): boolean {
  // Without a time of its own it never lapses: no date parses as NaN, which is never <= now.
  return Date.parse(String(request.holdsUntil)) <= now.getTime();
}

/** The hold of a request's payment link that expires at `expiresAt` (epoch seconds). */
function linkHold(request: Pick<RequestForCapacity, 'reference' | 'bottles'>, expiresAt: number): string {
  return holdId(paymentLinkReservationId(request.reference, expiresAt), request.bottles);
}

/** The hold of the link the request was last sent, if any. */
function lastLinkHold(request: RequestForCapacity): string | undefined {
  if (request.checkoutExpiresAt === undefined) return undefined;
  return linkHold(request, Math.floor(Date.parse(request.checkoutExpiresAt) / 1000));
}

export interface LinkReservation {
  date: IsoDate;
  hold: string;
  /** Stripe made no session: the bottles go back to the request (or back to the day when it moved). */
  undo: () => Promise<void>;
}

/**
 * A new link's bottles: the request's own, moved to the link's id on its day while still open, never let go;
 * otherwise reserved afresh from the later of that day and `earliest`. An expired link's are given back
 * first.
 * @throws CapacityFullError when they must be reserved afresh and no day has room.
 */
export async function holdForPaymentLink(
  store: CapacityStore,
  request: RequestForCapacity,
  link: { expiresAt: number; earliest: IsoDate; capacity: CapacitySettings | undefined; now: Date },
): Promise<LinkReservation> {
  const own = requestHold(request);
  const hold = linkHold(request, link.expiresAt);
  const previous = lastLinkHold(request);
  if (previous !== undefined) await releaseHold(store, request.dispatchDate, previous);
  const stillOpen = request.dispatchDate >= link.earliest;
  // A lapsed hold is never moved: the reconciler may be giving it back at this moment, and a move
  // half done under it would leave the link's bottles uncounted. Reserved afresh instead.
  const ownStillHeld = !requestHoldLapsed(request, link.now) && own !== hold;
  if (stillOpen && ownStillHeld && (await transferHold(store, request.dispatchDate, own, hold))) {
    return {
      date: request.dispatchDate,
      hold,
      undo: async () => {
        await transferHold(store, request.dispatchDate, hold, own);
      },
    };
  }
  // The same id (a link expiring the very second the request's hold lapses) stays held on an open
  // day, where the reservation below finds it; on a closed day it must go, or it stays counted there.
  if (own !== hold || !stillOpen) await releaseHold(store, request.dispatchDate, own);
  const reservation = await reserveBottles(store, {
    from: stillOpen ? request.dispatchDate : link.earliest,
    hold,
    capacity: link.capacity,
  });
  return {
    date: reservation.date,
    hold,
    undo: async () => {
      await releaseHold(store, reservation.date, hold);
    },
  };
}

/** A declined request gives back whatever it holds (its own hold, or its expired link's); safe to repeat. */
export async function releaseRequestBottles(
  store: CapacityStore,
  request: RequestForCapacity,
): Promise<void> {
  await releaseHold(store, request.dispatchDate, requestHold(request));
  const previous = lastLinkHold(request);
  if (previous !== undefined) await releaseHold(store, request.dispatchDate, previous);
}
