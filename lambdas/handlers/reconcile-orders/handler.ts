import type { Context } from 'aws-lambda';
import {
  type ReconcileDeps,
  type ReconcileSummary,
  reconcileOrders,
} from '../../domain/reconcile/reconcile-orders';
import { initOnce } from '../../lib/cold-start';
import type { Env } from '../../lib/config';
import { loadFulfilmentRuntime } from '../../runtime';

/**
 * Far above a session's cost (under a second) and Stripe's 8 s timeout with its one retry, so a run ends
 * between sessions rather than being killed inside one.
 */
export const RECONCILE_SAFETY_MARGIN_MS = 60_000;

/**
 * The scheduled entry point: the run looks at Stripe and the table and stops in time for the Lambda's limit;
 * an incomplete run throws, so the Errors metric shows it.
 */
export function createReconcileHandler(
  deps: ReconcileDeps | (() => Promise<ReconcileDeps>),
): (event?: unknown, context?: Pick<Context, 'getRemainingTimeInMillis'>) => Promise<ReconcileSummary> {
  const getDeps = typeof deps === 'function' ? deps : async () => deps;
  return async (_event, context) => {
    const resolved = await getDeps();
    const deadline =
      context &&
      new Date(resolved.now().getTime() + context.getRemainingTimeInMillis() - RECONCILE_SAFETY_MARGIN_MS);
    return reconcileOrders(resolved, { deadline });
  };
}

/** The reconciler's clients and window from the environment: once per cold start (see `handler`). */
export async function loadReconcileDeps(env: Env): Promise<ReconcileDeps> {
  const runtime = await loadFulfilmentRuntime(env);
  return { ...runtime.deps, lookbackDays: runtime.config.RECONCILE_LOOKBACK_DAYS };
}

export const handler = createReconcileHandler(initOnce(() => loadReconcileDeps(process.env)));
