import { logger } from '../../lib/logger';
import type { FulfilmentResult } from './fulfil-checkout';

/** What the reconciler counts of the payments it fulfils again, sessions' and invoices' alike. */
export interface FulfilmentCounts {
  fulfilledMissedOrders: number;
  emailsRetried: number;
  needsReview: number;
  failed: number;
}

/**
 * One step of a reconciler run (a session, an invoice, a sweep): a failure is counted, logged and
 * left for the next run, so it never stops the steps after it.
 */
export async function stepOrNextRun(
  counts: { failed: number },
  what: string,
  about: Record<string, unknown>,
  step: () => Promise<void>,
): Promise<void> {
  try {
    await step();
  } catch (error) {
    counts.failed += 1;
    logger.error(`Reconciler could not ${what}; the next run retries`, { ...about, error });
  }
}

/**
 * A payment fulfilled again: `fulfilled` an order its webhook never made (counted and logged as
 * `missed`), or `existed` (the emails this run sent counted); `other` when there is no order.
 */
export function countFulfilment(
  result: FulfilmentResult,
  counts: FulfilmentCounts,
  missed: string,
): 'recorded' | 'existed' | 'other' {
  if (result.outcome === 'needs-review') counts.needsReview += 1;
  if (result.outcome !== 'fulfilled') return 'other';
  if (result.orderCreated) {
    counts.fulfilledMissedOrders += 1;
    logger.warn(`Reconciler recorded ${missed} whose webhook never arrived`, { reference: result.reference });
    return 'recorded';
  }
  counts.emailsRetried += Object.values(result.emails).filter((email) => email === 'sent').length;
  return 'existed';
}
