import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  cdkJsonContext,
  formatStageCosts,
  type StageCostInput,
  stageCosts,
  stagesOf,
  synthesiseStage,
  type TemplateResource,
} from '../../scripts/stage-costs';

/*
 * The cost report's model of a stage (issue 48): every fixed monthly cost counted from the stage's
 * own stacks and settings, beside the per-order ones, with totals that are the sum of their lines.
 */

const many = (n: number, resource: TemplateResource): TemplateResource[] =>
  Array.from({ length: n }, () => resource);

/** A stage's stacks as the model reads them: 7 secrets, 24 alarms, a dashboard, the reconciler every 15 minutes. */
const BASE: TemplateResource[] = [
  ...many(7, { Type: 'AWS::SecretsManager::Secret' }),
  ...many(24, { Type: 'AWS::CloudWatch::Alarm' }),
  { Type: 'AWS::CloudWatch::Dashboard' },
  { Type: 'AWS::Events::Rule', Properties: { ScheduleExpression: 'rate(15 minutes)' } },
  {
    Type: 'AWS::Lambda::Function',
    Properties: {
      Description: 'Fulfils paid sessions whose webhook never arrived',
      MemorySize: 256,
      Architectures: ['arm64'],
    },
  },
];
const WAF: TemplateResource = { Type: 'AWS::WAFv2::WebACL', Properties: { Rules: [{}, {}, {}, {}] } };

const stage = (overrides: Partial<StageCostInput>): StageCostInput => ({
  stage: 'prod',
  forecastPlan: 'free',
  hostedZone: false,
  resources: BASE,
  ...overrides,
});

const fixedLines = (input: StageCostInput) =>
  stageCosts(input).fixed.map(({ item, usd, basis }) => [item, usd, basis] as const);

describe('a stage’s fixed monthly costs', () => {
  it('a free stage without WAF or domain: secrets, alarms, metrics, dashboard, reconciler, WAF off, email', () => {
    const costs = stageCosts(stage({ stage: 'dev' }));

    expect(fixedLines(stage({ stage: 'dev' }))).toEqual([
      ['Secrets Manager', 2.8, '7 secrets at $0.40'],
      ['CloudWatch alarms', 2.4, '24 alarms at $0.10'],
      ['CloudWatch custom metrics', 0.9, 'about 3 reported at $0.30'],
      ['CloudWatch dashboard', 3, "1 dashboard at $3.00 (an account's first 3 are free)"],
      ['Reconciler runs', 0.02, '2,880 runs (every 15 minutes) of 300 ms'],
      ['AWS WAF', 0, 'off (waf false)'],
      ['Email (SES)', 0, 'no monthly fee; $0.10 per 1,000 emails, per order below'],
    ]);
    expect(costs.fixedTotalUsd).toBe(9.12);
  });

  it('a trading stage: the forecast plan, the WAF’s ACL and rules, the hosted zone and the domain’s fee per month', () => {
    const input = stage({
      forecastPlan: 'commercial',
      domainName: 'daphnia-direct.co.uk',
      hostedZone: true,
      resources: [...BASE, { Type: 'AWS::CloudWatch::Alarm' }, WAF],
    });

    expect(fixedLines(input)).toEqual([
      ["Open-Meteo's commercial plan", 33.64, '€29.00 at $1.16 to the euro (forecastPlan commercial)'],
      ['Secrets Manager', 2.8, '7 secrets at $0.40'],
      ['CloudWatch alarms', 2.5, '25 alarms at $0.10'],
      ['CloudWatch custom metrics', 0.9, 'about 3 reported at $0.30'],
      ['CloudWatch dashboard', 3, "1 dashboard at $3.00 (an account's first 3 are free)"],
      ['Reconciler runs', 0.02, '2,880 runs (every 15 minutes) of 300 ms'],
      ['AWS WAF', 9, '1 web ACL at $5.00 + 4 rules at $1.00'],
      ['Route 53 hosted zone', 0.5, '1 zone at $0.50'],
      ['Domain daphnia-direct.co.uk', 0.75, '.co.uk at $9.00 a year, per month'],
      ['Email (SES)', 0, 'no monthly fee; $0.10 per 1,000 emails, per order below'],
    ]);
    expect(stageCosts(input).fixedTotalUsd).toBe(53.11);
  });

  it('a domain whose DNS is elsewhere costs its fee and no hosted zone; an unknown ending counts as .com', () => {
    expect(
      fixedLines(stage({ domainName: 'shop.daphnia.example' })).filter(([item]) => item.startsWith('Domain')),
    ).toEqual([['Domain shop.daphnia.example', 1.25, '.com at $15.00 a year, per month']]);
    expect(fixedLines(stage({ domainName: 'daphnia.uk' })).map(([item]) => item)).not.toContain(
      'Route 53 hosted zone',
    );
  });

  it('every total is the sum of its lines as printed', () => {
    const costs = stageCosts(
      stage({
        forecastPlan: 'commercial',
        domainName: 'daphnia.uk',
        hostedZone: true,
        resources: [...BASE, WAF],
      }),
    );
    const sum = (lines: readonly { usd: number }[]) =>
      Math.round(lines.reduce((total, line) => total + Math.round(line.usd * 100), 0)) / 100;

    expect(costs.fixedTotalUsd).toBe(sum(costs.fixed));
    expect(costs.perThousandOrdersTotalUsd).toBe(sum(costs.perThousandOrders));
  });
});

describe('a stage’s costs per 1,000 orders', () => {
  it('with the assumed work: Lambda, API, DynamoDB, email, CloudFront, logs; the WAF’s requests on a WAF stage', () => {
    const costs = stageCosts(stage({ resources: [...BASE, WAF] }));

    expect(costs.perThousandOrders.map(({ item, usd }) => [item, usd])).toEqual([
      ['Lambda', 0.01],
      ['API Gateway', 0.01],
      ['DynamoDB', 0.01],
      ['Email (SES)', 0.2],
      ['CloudFront', 0.15],
      ['CloudWatch Logs', 0.01],
      ['AWS WAF', 0.03],
    ]);
    expect(costs.perThousandOrdersTotalUsd).toBe(0.42);
    // 1.5 % of £14.70 and 20p, on each of 1,000 orders.
    expect(costs.stripePerThousandOrdersPence).toBe(42050);
  });
});

describe('the report', () => {
  it('prints each stage’s lines and totals', () => {
    expect(formatStageCosts(stageCosts(stage({ stage: 'dev' })))).toEqual([
      'Stage dev, fixed, per month (USD, prices of 2025-06-01):',
      '  Secrets Manager               $2.80  7 secrets at $0.40',
      '  CloudWatch alarms             $2.40  24 alarms at $0.10',
      '  CloudWatch custom metrics     $0.90  about 3 reported at $0.30',
      "  CloudWatch dashboard          $3.00  1 dashboard at $3.00 (an account's first 3 are free)",
      '  Reconciler runs               $0.02  2,880 runs (every 15 minutes) of 300 ms',
      '  AWS WAF                       $0.00  off (waf false)',
      '  Email (SES)                   $0.00  no monthly fee; $0.10 per 1,000 emails, per order below',
      '  total                         $9.12',
      'Stage dev, per 1,000 orders (USD):',
      '  Lambda                        $0.01  5 invocations',
      '  API Gateway                   $0.01  5 requests',
      '  DynamoDB                      $0.01  6 writes',
      '  Email (SES)                   $0.20  2 emails',
      '  CloudFront                    $0.15  10 page views of 120 KiB',
      '  CloudWatch Logs               $0.01  2 KiB per invocation',
      '  total                         $0.39',
      "  Stripe's fees on 1,000 orders of £14.70 (UK cards, 1.5 % + 20p): £420.50",
    ]);
  });

  it('covers the stage cdk.json names and each stage block', () => {
    expect(stagesOf({ stage: 'dev', stages: { test: {}, prod: {} } })).toEqual(['dev', 'test', 'prod']);
    expect(stagesOf({ stage: 'dev' })).toEqual(['dev']);
  });
});

describe('docs/deploy-reference.md’s costs table', () => {
  it('says what the model says for its three shapes of stage: dev, a test stage with the WAF, a trading one', () => {
    const table = readFileSync('docs/deploy-reference.md', 'utf8');
    const dev = stageCosts(stage({ stage: 'dev' }));
    const test = stageCosts(stage({ stage: 'test', resources: [...BASE, WAF] }));
    const trading = stageCosts(
      stage({
        forecastPlan: 'commercial',
        domainName: 'daphnia-direct.co.uk',
        hostedZone: true,
        resources: [...BASE, { Type: 'AWS::CloudWatch::Alarm' }, WAF],
      }),
    );

    expect([dev.fixedTotalUsd, test.fixedTotalUsd, trading.fixedTotalUsd]).toEqual([9.12, 18.12, 53.11]);
    expect(table).toContain('| **total** ');
    expect(table).toMatch(/\| \*\*total\*\* +\| \*\*\$9\.12\*\* \| \*\*\$18\.12\*\* \| \*\*\$53\.11\*\* +\|/);
    expect(table).toMatch(
      /\| Open-Meteo commercial plan: €29\.00 at \$1\.16 to the euro +\| – +\| – +\| \$33\.64 +\|/,
    );
    expect(table).toContain('**£420.50** per 1,000 orders of £14.70');
  });
});

describe('counted from the stage’s own synthesised stacks', () => {
  it('a commercial stage with the WAF and its domain in Route 53: its secrets, alarms, ACL and rules', () => {
    const input = synthesiseStage('dev', {
      ...cdkJsonContext(),
      forecastPlan: 'commercial',
      waf: true,
      domainName: 'daphnia-direct.co.uk',
      certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abcd-1234',
      hostedZoneId: 'Z0123456789ABC',
      hostedZoneName: 'daphnia-direct.co.uk',
      account: '123456789012',
    });

    expect(formatStageCosts(stageCosts(input)).slice(0, 12)).toEqual([
      'Stage dev, fixed, per month (USD, prices of 2025-06-01):',
      "  Open-Meteo's commercial plan    $33.64  €29.00 at $1.16 to the euro (forecastPlan commercial)",
      // Stripe's three, the forecast key, the order page's secret, the VAPID pair and the origin-verify value.
      '  Secrets Manager                  $2.80  7 secrets at $0.40',
      // 7 functions' errors and throttles, 10 of the shop's own, and the forecast key's.
      '  CloudWatch alarms                $2.50  25 alarms at $0.10',
      '  CloudWatch custom metrics        $0.90  about 3 reported at $0.30',
      "  CloudWatch dashboard             $3.00  1 dashboard at $3.00 (an account's first 3 are free)",
      '  Reconciler runs                  $0.02  2,880 runs (every 15 minutes) of 300 ms',
      '  AWS WAF                          $9.00  1 web ACL at $5.00 + 4 rules at $1.00',
      '  Route 53 hosted zone             $0.50  1 zone at $0.50',
      '  Domain daphnia-direct.co.uk      $0.75  .co.uk at $9.00 a year, per month',
      '  Email (SES)                      $0.00  no monthly fee; $0.10 per 1,000 emails, per order below',
      '  total                           $53.11',
    ]);
  }, 300_000);
});
