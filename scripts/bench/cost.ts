import {
  ASSUMED_WORK,
  cdkJsonContext,
  formatStageCosts,
  type MeasuredWork,
  PRICES,
  stageCosts,
  stagesOf,
  synthesiseStage,
} from '../stage-costs';
import { percentile, raw, record, section } from './figures';

// ---------------------------------------------------------------------------------------------
// Cost model

/**
 * Every stage of cdk.json, synthesised in memory, through the cost model (scripts/stage-costs.ts):
 * its fixed monthly costs and, with this run's measured durations, its costs per 1,000 orders.
 */
export function costFigures() {
  section('Cost model');
  const warm = raw.warm as Record<string, number[]> | undefined;
  const fulfil = raw.fulfilment as
    | { perOrderMs: number; breakdown: Record<string, { calls: number; ms: number }> }
    | undefined;
  // A Lambda runs warm at the measured p50 plus the Stripe round trip, taken as 300 ms.
  const stripeRoundTripMs = 300;
  const work: MeasuredWork = {
    checkoutMs: percentile(warm?.['create-checkout sequential'] ?? [10], 50) + stripeRoundTripMs,
    statusMs: percentile(warm?.['checkout-status sequential'] ?? [5], 50) + stripeRoundTripMs,
    webhookMs: (fulfil?.perOrderMs ?? 50) + stripeRoundTripMs,
    dynamoCallsPerOrder: fulfil?.breakdown.dynamo?.calls ?? ASSUMED_WORK.dynamoCallsPerOrder,
    emailsPerOrder: fulfil?.breakdown.ses?.calls ?? ASSUMED_WORK.emailsPerOrder,
  };
  const context = cdkJsonContext();
  const stages = stagesOf(context).map((stage) => stageCosts(synthesiseStage(stage, context), work));
  raw.cost = { prices: PRICES, work, stages };
  for (const costs of stages) {
    for (const line of formatStageCosts(costs)) console.log(`  ${line}`);
    record({
      section: 'cost',
      name: `Fixed per month, stage ${costs.stage}`,
      value: `$${costs.fixedTotalUsd.toFixed(2)}`,
      unit: '',
      detail: `prices of ${PRICES.date}; ${costs.fixed.map((line) => `${line.item} $${line.usd.toFixed(2)}`).join(', ')}`,
    });
    record({
      section: 'cost',
      name: `AWS per 1,000 orders, stage ${costs.stage}`,
      value: `$${costs.perThousandOrdersTotalUsd.toFixed(2)}`,
      unit: '',
      detail: `prices of ${PRICES.date}; assumptions in scripts/stage-costs.ts`,
    });
  }
  const [first] = stages;
  if (first !== undefined) {
    record({
      section: 'cost',
      name: 'Stripe fees per 1,000 orders of £14.70',
      value: `£${(first.stripePerThousandOrdersPence / 100).toFixed(2)}`,
      unit: '',
      detail: '1.5 % + 20p, UK cards',
    });
  }
}
