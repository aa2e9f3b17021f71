import { CfnOutput, Stack, type StackProps, Tags } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { PUBLIC_API_ROUTES, type WafScope } from '../../shared/public-routes';

/** CloudFront only takes web ACLs (and certificates) from us-east-1, whatever the shop's region. */
export const EDGE_REGION = 'us-east-1';

/** Per-client limits: a script sending 10 checkouts a second is blocked within a minute, not the route. */
export const WAF_LIMITS = {
  /** create-checkout requests per client IP in any 60 s (the smallest window WAF offers). */
  checkoutPerMinute: 10,
  /** All requests per client IP in any 5 minutes, the Stripe webhook excepted. */
  allPerFiveMinutes: 600,
  /** Order page requests (the page's read and its correction) per client IP in any 60 s. */
  orderPagePerMinute: 20,
} as const;

export interface ShopEdgeStackProps extends StackProps {
  readonly stage: string;
}

const visibility = (metricName: string) => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: true,
});

/** One API path as API Gateway routes it: decoded and lower-cased, so `create%2Dcheckout` counts too. */
const uriPathIs = (path: string) => ({
  byteMatchStatement: {
    fieldToMatch: { uriPath: {} },
    positionalConstraint: 'EXACTLY',
    searchString: path,
    textTransformations: [
      { priority: 0, type: 'URL_DECODE' },
      { priority: 1, type: 'LOWERCASE' },
    ],
  },
});

/** The paths of the routes of WAF scope `scope`: one statement, or an OR (WAF wants two there). */
function uriPathInScope(scope: WafScope) {
  const paths = Object.values(PUBLIC_API_ROUTES)
    .filter((route) => route.waf === scope)
    .map((route) => uriPathIs(route.path));
  const [only] = paths;
  if (only === undefined) throw new Error(`ShopEdgeStack: no route has the WAF scope ${scope}`);
  return paths.length === 1 ? only : { orStatement: { statements: paths } };
}

/** WAF's answer to a blocked client: 429 like API Gateway's throttle, so the page says the same. */
const tooManyRequests = { block: { customResponse: { responseCode: 429 } } };

/**
 * The stage's WAF web ACL in us-east-1: per-client rate limits and Amazon's IP reputation list,
 * attached to the distribution through a cross-region reference.
 */
export class ShopEdgeStack extends Stack {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: ShopEdgeStackProps) {
    super(scope, id, { ...props, env: { ...props.env, region: EDGE_REGION }, crossRegionReferences: true });
    Tags.of(this).add('project', 'live-aquatics');
    Tags.of(this).add('stage', props.stage);

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: `LiveAquatics-${props.stage}`,
      description: 'Live Aquatics shop: per-client rate limits in front of CloudFront',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`LiveAquatics-${props.stage}`),
      rules: [
        {
          name: 'CheckoutPerClient',
          priority: 0,
          action: tooManyRequests,
          statement: {
            rateBasedStatement: {
              limit: WAF_LIMITS.checkoutPerMinute,
              evaluationWindowSec: 60,
              aggregateKeyType: 'IP',
              scopeDownStatement: uriPathInScope('checkout'),
            },
          },
          visibilityConfig: visibility(`LiveAquatics-${props.stage}-CheckoutPerClient`),
        },
        {
          name: 'AllPerClient',
          priority: 1,
          action: tooManyRequests,
          statement: {
            rateBasedStatement: {
              limit: WAF_LIMITS.allPerFiveMinutes,
              evaluationWindowSec: 300,
              aggregateKeyType: 'IP',
              // Stripe delivers webhooks from a handful of addresses; a burst of events must not
              // be mistaken for a flood (the webhook checks signatures and has its own throttle).
              scopeDownStatement: { notStatement: { statement: uriPathInScope('exempt') } },
            },
          },
          visibilityConfig: visibility(`LiveAquatics-${props.stage}-AllPerClient`),
        },
        {
          name: 'AmazonIpReputationList',
          priority: 2,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: { vendorName: 'AWS', name: 'AWSManagedRulesAmazonIpReputationList' },
          },
          visibilityConfig: visibility(`LiveAquatics-${props.stage}-IpReputation`),
        },
        {
          // Tokens cannot be guessed, but a script trying them, or reloading one page, is cut off
          // as a checkout flood is; a customer reads the page a few times and corrects it once.
          name: 'OrderPagePerClient',
          priority: 3,
          action: tooManyRequests,
          statement: {
            rateBasedStatement: {
              limit: WAF_LIMITS.orderPagePerMinute,
              evaluationWindowSec: 60,
              aggregateKeyType: 'IP',
              scopeDownStatement: uriPathInScope('order-page'),
            },
          },
          visibilityConfig: visibility(`LiveAquatics-${props.stage}-OrderPagePerClient`),
        },
      ],
    });

    new CfnOutput(this, 'WebAclArn', { value: this.webAcl.attrArn });
  }
}
