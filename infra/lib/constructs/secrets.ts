import { RemovalPolicy } from 'aws-cdk-lib';
import type { Grant, IGrantable } from 'aws-cdk-lib/aws-iam';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { acknowledgeNag } from '../nag';

/** Keys of the JSON the operator puts in the secret (docs/architecture.md, docs/deploy.md). */
export const STRIPE_SECRET_JSON_KEYS = ['stripeSecretKey', 'stripeWebhookSecret'] as const;

/** Props of {@link StripeSecret}. */
export interface StripeSecretProps {
  /** Deployment stage, shown in the secret's description so an operator picks the right one. */
  readonly stage: string;
}

/**
 * The one Secrets Manager secret holding the Stripe secret key and webhook signing secret, as JSON
 * `{ "stripeSecretKey": "...", "stripeWebhookSecret": "..." }`.
 *
 * The stack never sees the values: CloudFormation creates the secret with a random placeholder,
 * the operator replaces it once with `aws secretsmanager put-secret-value`, and the functions read
 * it at cold start by id (`STRIPE_SECRET_ID`). Stack updates leave the value alone, because the
 * template's generator settings never change.
 */
export class StripeSecret extends Construct {
  readonly secret: Secret;

  constructor(scope: Construct, id: string, props: StripeSecretProps) {
    super(scope, id);

    this.secret = new Secret(this, 'Secret', {
      description: `Live Aquatics (${props.stage}): Stripe keys as JSON {"${STRIPE_SECRET_JSON_KEYS.join('", "')}"}; set with aws secretsmanager put-secret-value (docs/deploy.md)`,
      // A random string that is not JSON: a function that runs before the operator's step fails
      // at cold start with a clear config error instead of calling Stripe with a guessable key.
      generateSecretString: { passwordLength: 32, excludePunctuation: true },
      // Losing the secret with the stack would take the webhook signing secret with it.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    acknowledgeNag(
      this.secret,
      'AwsSolutions-SMG4',
      'Stripe API keys and webhook signing secrets are issued and rolled in the Stripe Dashboard; Secrets Manager has no way to rotate them. Control: the rolling procedure in docs/deploy.md, read access granted only to the four functions that call Stripe, encryption with the account key.',
    );
  }

  /** Lets a function read the secret (GetSecretValue, DescribeSecret on this secret only). */
  grantRead(grantee: IGrantable): Grant {
    return this.secret.grantRead(grantee);
  }
}
