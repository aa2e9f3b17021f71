import * as z from 'zod/mini';
import { HISTORY_ACTIONS, type HistoryAction, type HistoryEntry } from '../../../shared/admin-responses';

/**
 * An order's or request's history as stored on its item: an append-only list, oldest first.
 * Optional: items recorded before history was kept have none.
 */
export const historyField = {
  history: z.optional(
    z.array(
      z.object({
        at: z.iso.datetime(),
        actor: z.string(),
        action: z.enum(HISTORY_ACTIONS),
        detail: z.optional(z.string()),
      }),
    ),
  ),
};

/** Who acts on the shop's records, besides a merchant or an operator (who pass their own). */
export const ACTORS = {
  /** Stripe reported the payment: the order was recorded. */
  stripe: 'Stripe',
  /** A refund Stripe reported that the shop did not ask for: made in the Stripe Dashboard. */
  stripeDashboard: 'Stripe Dashboard',
  /** A refund the shop asked Stripe for, from before history named who asked. */
  shop: 'the shop',
  /** The customer, through the shop's page (an order request). */
  customer: 'customer',
} as const;

/** One history entry; `detail` left out when there is none. */
export function historyEntry(
  at: string,
  actor: string,
  action: HistoryAction,
  detail?: string | undefined,
): HistoryEntry {
  return { at, actor, action, ...(detail !== undefined && detail !== '' && { detail }) };
}

/**
 * The SET fragment appending `entry` to the history, inside the same conditional update as its change, so the
 * history never disagrees with the status.
 */
export function appendHistory(entry: HistoryEntry): {
  set: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
} {
  return {
    set: '#history = list_append(if_not_exists(#history, :noHistory), :historyEntry)',
    names: { '#history': 'history' },
    values: { ':noHistory': [], ':historyEntry': [entry] },
  };
}
