import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readShopConfig } from '../infra/lib/config';
import { createShopApp } from '../infra/lib/shop-app';

/*
 * The cost model of one stage: every fixed monthly cost (what the stage costs with no customer)
 * beside the per-order ones, read from the stage's own synthesised stacks (its secrets, alarms,
 * WAF rules, schedule) and its settings (forecast plan, domain, hosted zone). `npm run bench`
 * prints it for every stage of cdk.json; docs/deploy.md's costs table is this model's output
 * for the stages it names. Pure apart from {@link synthesiseStage}, so the tests state the figures.
 */

/**
 * eu-west-2 (London) list prices in USD, as assumed on 2025-06-01 (from AWS's public price pages
 * as known then; check them before relying on the totals). Free tiers are left out: the model is
 * for an account that has used them up. Stripe's UK card fee is in GBP, Open-Meteo's plan in EUR.
 */
export const PRICES = {
  date: '2025-06-01',
  lambdaArmGbSecond: 0.0000133334,
  lambdaX86GbSecond: 0.0000166667,
  lambdaRequest: 0.2 / 1e6,
  httpApiRequest: 1.04 / 1e6,
  dynamoWriteRequestUnit: 1.4846 / 1e6,
  dynamoReadRequestUnit: 0.297 / 1e6,
  dynamoStorageGbMonth: 0.29,
  sesEmail: 0.1 / 1000,
  secretMonth: 0.4,
  secretApiCall: 0.05 / 10_000,
  alarmMonth: 0.1,
  customMetricMonth: 0.3,
  /** An account's first 3 dashboards are free; the model counts the stage's as paid. */
  dashboardMonth: 3,
  kmsKeyMonth: 1,
  wafWebAclMonth: 5,
  wafRuleMonth: 1,
  wafRequest: 0.6 / 1e6,
  hostedZoneMonth: 0.5,
  cloudFrontGbEurope: 0.085,
  cloudFrontHttpsRequest: 0.012 / 10_000,
  cloudFrontFunction: 0.1 / 1e6,
  logsIngestGb: 0.5985,
  stripeUkCardPercent: 1.5,
  stripeUkCardFixedPence: 20,
  /** Open-Meteo's smallest commercial plan, "from about €29 a month" (open-meteo.com/en/pricing, late 2025). */
  openMeteoCommercialMonthEur: 29,
  /** The euro in US dollars, as assumed with the prices: Open-Meteo bills in euros, AWS in dollars. */
  usdPerEur: 1.16,
} as const;

/**
 * Route 53's yearly registration fee of a domain, by its ending, in USD as assumed with the prices
 * (a registrar elsewhere charges about the same); an ending not listed counts as `.com`.
 */
export const DOMAIN_YEARLY_FEES_USD: Readonly<Record<string, number>> = {
  'co.uk': 9,
  uk: 9,
  com: 15,
  shop: 33,
};

/** The shop's own metrics an active stage reports (each a custom metric, billed per month). */
export const REPORTED_CUSTOM_METRICS = 3;

/** A resource of a synthesised template, as much as the model reads. */
export interface TemplateResource {
  Type: string;
  Properties?: Record<string, unknown>;
}

/** What the model needs of a stage: its settings that cost money, and its synthesised resources. */
export interface StageCostInput {
  stage: string;
  forecastPlan: 'free' | 'commercial';
  domainName?: string | undefined;
  /** Whether the stack writes the domain's records into a Route 53 hosted zone (hostedZoneId set). */
  hostedZone: boolean;
  /** Every resource of the stage's stacks (data, app and, with the WAF, edge). */
  resources: readonly TemplateResource[];
}

/** One line of a cost table: what, its monthly figure in USD, and how it was counted. */
export interface CostLine {
  item: string;
  usd: number;
  basis: string;
}

/** A stage's costs: the fixed lines and their total, and the per-1,000-orders lines and theirs. */
export interface StageCosts {
  stage: string;
  fixed: CostLine[];
  fixedTotalUsd: number;
  perThousandOrders: CostLine[];
  perThousandOrdersTotalUsd: number;
  /** Stripe's fee on 1,000 orders of £14.70 (3 bottles and delivery), in pence. */
  stripePerThousandOrdersPence: number;
}

/** What was measured (npm run bench's warm and fulfilment parts); the defaults stand in without them. */
export interface MeasuredWork {
  checkoutMs: number;
  statusMs: number;
  webhookMs: number;
  dynamoCallsPerOrder: number;
  emailsPerOrder: number;
}

/** Without a bench run: a warm Lambda's work taken as the Stripe round trip (300 ms) plus a little. */
export const ASSUMED_WORK: MeasuredWork = {
  checkoutMs: 310,
  statusMs: 305,
  webhookMs: 350,
  dynamoCallsPerOrder: 6,
  emailsPerOrder: 2,
};

/** Rounded to the cent, so every line and total reads as it adds up. */
const cents = (usd: number) => Math.round(usd * 100) / 100;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function sum(lines: readonly CostLine[]): number {
  return cents(lines.reduce((total, line) => total + line.usd, 0));
}

/** The domain's ending as DOMAIN_YEARLY_FEES_USD knows it: `co.uk` before `uk`. */
function domainEnding(domain: string): string {
  const labels = domain.toLowerCase().split('.');
  const two = labels.slice(-2).join('.');
  if (two in DOMAIN_YEARLY_FEES_USD) return two;
  const one = labels.at(-1) ?? '';
  return one in DOMAIN_YEARLY_FEES_USD ? one : 'com';
}

interface FunctionSpec {
  description: string;
  memoryMb: number;
  arm: boolean;
}

function functionsOf(resources: readonly TemplateResource[]): FunctionSpec[] {
  return resources
    .filter((r) => r.Type === 'AWS::Lambda::Function')
    .map((r) => ({
      description: String(r.Properties?.Description ?? 'a CDK helper function'),
      memoryMb: Number(r.Properties?.MemorySize ?? 128),
      arm: JSON.stringify(r.Properties?.Architectures ?? []).includes('arm64'),
    }));
}

function gbSecondUsd(fn: FunctionSpec | undefined, ms: number): number {
  return (
    ((fn?.memoryMb ?? 256) / 1024) *
    (ms / 1000) *
    (fn?.arm === false ? PRICES.lambdaX86GbSecond : PRICES.lambdaArmGbSecond)
  );
}

/** The reconciler's schedule in minutes (`rate(15 minutes)`). */
function reconcilerEveryMinutes(resources: readonly TemplateResource[]): number {
  const schedules = resources
    .filter((r) => r.Type === 'AWS::Events::Rule')
    .map((r) => String(r.Properties?.ScheduleExpression ?? ''));
  const rate = schedules.map((s) => /rate\((\d+) minutes?\)/.exec(s)?.[1]).find((m) => m !== undefined);
  return Number(rate ?? 15);
}

/**
 * A stage's fixed monthly costs, each line counted from its own stacks or settings: the forecast
 * plan (when the stage declares commercial use), Secrets Manager, CloudWatch (alarms, metrics,
 * dashboard), the reconciler's runs, the WAF (web ACL and its rules), the domain (hosted zone and
 * the yearly fee per month), email (SES has no monthly fee) and KMS keys when there are any; and
 * the per-1,000-orders costs beside them.
 */
export function stageCosts(input: StageCostInput, work: MeasuredWork = ASSUMED_WORK): StageCosts {
  const { resources } = input;
  const count = (type: string) => resources.filter((r) => r.Type === type).length;
  const fixed: CostLine[] = [];

  if (input.forecastPlan === 'commercial') {
    fixed.push({
      item: "Open-Meteo's commercial plan",
      usd: cents(PRICES.openMeteoCommercialMonthEur * PRICES.usdPerEur),
      basis: `€${PRICES.openMeteoCommercialMonthEur.toFixed(2)} at $${PRICES.usdPerEur} to the euro (forecastPlan commercial)`,
    });
  }
  const secrets = count('AWS::SecretsManager::Secret');
  fixed.push({
    item: 'Secrets Manager',
    usd: cents(secrets * PRICES.secretMonth),
    basis: `${plural(secrets, 'secret')} at $${PRICES.secretMonth.toFixed(2)}`,
  });
  const alarms = count('AWS::CloudWatch::Alarm');
  fixed.push({
    item: 'CloudWatch alarms',
    usd: cents(alarms * PRICES.alarmMonth),
    basis: `${plural(alarms, 'alarm')} at $${PRICES.alarmMonth.toFixed(2)}`,
  });
  fixed.push({
    item: 'CloudWatch custom metrics',
    usd: cents(REPORTED_CUSTOM_METRICS * PRICES.customMetricMonth),
    basis: `about ${REPORTED_CUSTOM_METRICS} reported at $${PRICES.customMetricMonth.toFixed(2)}`,
  });
  const dashboards = count('AWS::CloudWatch::Dashboard');
  fixed.push({
    item: 'CloudWatch dashboard',
    usd: cents(dashboards * PRICES.dashboardMonth),
    basis: `${plural(dashboards, 'dashboard')} at $${PRICES.dashboardMonth.toFixed(2)} (an account's first 3 are free)`,
  });
  const everyMinutes = reconcilerEveryMinutes(resources);
  const runs = (30 * 24 * 60) / everyMinutes;
  const reconciler = functionsOf(resources).find((f) => /webhook never arrived/i.test(f.description));
  // An idle run is one Stripe list call, taken as 300 ms billed, and one read of its key.
  fixed.push({
    item: 'Reconciler runs',
    usd: cents(runs * (gbSecondUsd(reconciler, 300) + PRICES.lambdaRequest + PRICES.secretApiCall)),
    basis: `${runs.toLocaleString('en-GB')} runs (every ${everyMinutes} minutes) of 300 ms`,
  });
  const webAcls = resources.filter((r) => r.Type === 'AWS::WAFv2::WebACL');
  const rules = webAcls.reduce(
    (total, acl) => total + (Array.isArray(acl.Properties?.Rules) ? acl.Properties.Rules.length : 0),
    0,
  );
  fixed.push(
    webAcls.length === 0
      ? { item: 'AWS WAF', usd: 0, basis: 'off (waf false)' }
      : {
          item: 'AWS WAF',
          usd: cents(webAcls.length * PRICES.wafWebAclMonth + rules * PRICES.wafRuleMonth),
          basis: `${plural(webAcls.length, 'web ACL')} at $${PRICES.wafWebAclMonth.toFixed(2)} + ${plural(rules, 'rule')} at $${PRICES.wafRuleMonth.toFixed(2)}`,
        },
  );
  if (input.hostedZone) {
    fixed.push({
      item: 'Route 53 hosted zone',
      usd: PRICES.hostedZoneMonth,
      basis: `1 zone at $${PRICES.hostedZoneMonth.toFixed(2)}`,
    });
  }
  if (input.domainName !== undefined) {
    const ending = domainEnding(input.domainName);
    const yearly = DOMAIN_YEARLY_FEES_USD[ending] ?? 15;
    fixed.push({
      item: `Domain ${input.domainName}`,
      usd: cents(yearly / 12),
      basis: `.${ending} at $${yearly.toFixed(2)} a year, per month`,
    });
  }
  fixed.push({
    item: 'Email (SES)',
    usd: 0,
    basis: `no monthly fee; $${(PRICES.sesEmail * 1000).toFixed(2)} per 1,000 emails, per order below`,
  });
  const kmsKeys = count('AWS::KMS::Key');
  if (kmsKeys > 0) {
    fixed.push({
      item: 'KMS keys',
      usd: cents(kmsKeys * PRICES.kmsKeyMonth),
      basis: `${plural(kmsKeys, 'key')} at $${PRICES.kmsKeyMonth.toFixed(2)}`,
    });
  }

  // Per 1,000 orders. Each order is 1 create-checkout, 2 checkout-status (the success page and one
  // reload), 2 webhook deliveries, 10 page views of about 120 KiB, and about 2 KiB of logs per
  // invocation; a WAF stage also inspects about 50 requests an order.
  const functions = functionsOf(resources);
  const checkoutFn = functions.find((f) => /Checkout Session|checkout/i.test(f.description));
  const webhookFn = functions.find((f) => /Verifies Stripe events/i.test(f.description));
  const invocations = 1 + 2 + 2;
  const KIB = 1024;
  const perOrder: CostLine[] = [
    {
      item: 'Lambda',
      usd:
        gbSecondUsd(checkoutFn, work.checkoutMs) +
        2 * gbSecondUsd(checkoutFn, work.statusMs) +
        2 * gbSecondUsd(webhookFn, work.webhookMs) +
        invocations * PRICES.lambdaRequest,
      basis: `${invocations} invocations`,
    },
    { item: 'API Gateway', usd: invocations * PRICES.httpApiRequest, basis: `${invocations} requests` },
    {
      item: 'DynamoDB',
      usd: work.dynamoCallsPerOrder * PRICES.dynamoWriteRequestUnit,
      basis: `${work.dynamoCallsPerOrder} writes`,
    },
    {
      item: 'Email (SES)',
      usd: work.emailsPerOrder * PRICES.sesEmail,
      basis: `${work.emailsPerOrder} emails`,
    },
    {
      item: 'CloudFront',
      usd:
        10 * ((120 * KIB) / 1024 ** 3) * PRICES.cloudFrontGbEurope +
        10 * 4 * (PRICES.cloudFrontHttpsRequest + PRICES.cloudFrontFunction),
      basis: '10 page views of 120 KiB',
    },
    {
      item: 'CloudWatch Logs',
      usd: invocations * ((2 * KIB) / 1024 ** 3) * PRICES.logsIngestGb,
      basis: '2 KiB per invocation',
    },
    ...(webAcls.length > 0
      ? [{ item: 'AWS WAF', usd: 50 * PRICES.wafRequest, basis: '50 requests inspected' }]
      : []),
  ];
  const perThousandOrders = perOrder.map((line) => ({ ...line, usd: cents(line.usd * 1000) }));
  const stripePerThousandOrdersPence = Math.round(
    1000 * ((1470 * PRICES.stripeUkCardPercent) / 100 + PRICES.stripeUkCardFixedPence),
  );
  return {
    stage: input.stage,
    fixed,
    fixedTotalUsd: sum(fixed),
    perThousandOrders,
    perThousandOrdersTotalUsd: sum(perThousandOrders),
    stripePerThousandOrdersPence,
  };
}

/** The stage's costs as a table to print: one line per cost, then the total, both parts. */
export function formatStageCosts(costs: StageCosts): string[] {
  const money = (usd: number) => `$${usd.toFixed(2)}`;
  const width = Math.max(...[...costs.fixed, ...costs.perThousandOrders].map((line) => line.item.length));
  const row = (line: CostLine) =>
    `  ${line.item.padEnd(width)}  ${money(line.usd).padStart(8)}  ${line.basis}`;
  return [
    `Stage ${costs.stage}, fixed, per month (USD, prices of ${PRICES.date}):`,
    ...costs.fixed.map(row),
    `  ${'total'.padEnd(width)}  ${money(costs.fixedTotalUsd).padStart(8)}`,
    `Stage ${costs.stage}, per 1,000 orders (USD):`,
    ...costs.perThousandOrders.map(row),
    `  ${'total'.padEnd(width)}  ${money(costs.perThousandOrdersTotalUsd).padStart(8)}`,
    `  Stripe's fees on 1,000 orders of £14.70 (UK cards, 1.5 % + 20p): £${(costs.stripePerThousandOrdersPence / 100).toFixed(2)}`,
  ];
}

/** The stages cdk.json declares: the top-level stage and each block under `stages`. */
export function stagesOf(context: Readonly<Record<string, unknown>>): string[] {
  const stages = context.stages;
  const named = typeof stages === 'object' && stages !== null ? Object.keys(stages) : [];
  const top = typeof context.stage === 'string' ? [context.stage] : [];
  return [...new Set([...top, ...named])];
}

/** cdk.json's context. */
export function cdkJsonContext(path = 'cdk.json'): Record<string, unknown> {
  return (JSON.parse(readFileSync(path, 'utf8')) as { context: Record<string, unknown> }).context;
}

/**
 * A stage synthesised in memory (no bundling, no AWS call) with `context` (cdk.json's unless
 * given): what {@link stageCosts} reads.
 */
export function synthesiseStage(
  stage: string,
  context: Record<string, unknown> = cdkJsonContext(),
): StageCostInput {
  const outdir = mkdtempSync(join(tmpdir(), 'shop-costs-cdk-'));
  try {
    const { app, stack } = createShopApp({
      context: {
        ...context,
        stage,
        'aws:cdk:bundling-stacks': [],
        'aws:cdk:disable-asset-staging': true,
      },
      outdir,
    });
    const config = readShopConfig(stack.node);
    const resources = app
      .synth()
      .stacks.flatMap((s) =>
        Object.values((s.template as { Resources: Record<string, TemplateResource> }).Resources),
      );
    return {
      stage,
      forecastPlan: config.forecastPlan,
      domainName: config.domainName,
      hostedZone: config.hostedZoneId !== undefined,
      resources,
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
