import { RemovalPolicy } from 'aws-cdk-lib';
import type { Grant, IGrantable } from 'aws-cdk-lib/aws-iam';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { OPEN_METEO_KEY_JSON_KEY } from '../../../lambdas/domain/weather/forecast-source';
import { VAPID_SECRET_JSON_KEYS } from '../../../shared/merchant-push';
import { acknowledgeNag } from '../nag';

/** JSON key of a Stripe API key secret: `{ "stripeSecretKey": "rk_live_..." }`. */
export const STRIPE_KEY_JSON_KEY = 'stripeSecretKey';

/** JSON key of the webhook signing secret: `{ "stripeWebhookSecret": "whsec_..." }`. */
export const STRIPE_WEBHOOK_JSON_KEY = 'stripeWebhookSecret';

/**
 * The Stripe credentials, one secret per trust level (ADR 0010): `checkoutKey` for create-checkout and
 * checkout-status; `fulfilmentKey` for the webhook, reconciler, order page and admin (its permissions:
 * docs/deploy.md's key table); `webhookSigningSecret` for the webhook alone.
 */
export const STRIPE_SECRETS = {
  checkoutKey: {
    id: 'StripeCheckoutKey',
    jsonKey: STRIPE_KEY_JSON_KEY,
    example: '<restricted key>',
    readers: 'create-checkout, checkout-status',
  },
  fulfilmentKey: {
    id: 'StripeFulfilmentKey',
    jsonKey: STRIPE_KEY_JSON_KEY,
    example: '<restricted key>',
    readers: 'stripe-webhook, reconcile-orders, admin-api',
  },
  webhookSigningSecret: {
    id: 'StripeWebhookSigningSecret',
    jsonKey: STRIPE_WEBHOOK_JSON_KEY,
    example: '<endpoint signing secret>',
    readers: 'stripe-webhook',
  },
} as const;

export type StripeSecretName = keyof typeof STRIPE_SECRETS;

export interface StripeSecretsProps {
  /** Deployment stage, shown in each secret's description so an operator picks the right one. */
  readonly stage: string;
}

/**
 * The Stripe secrets: CloudFormation makes each with a random placeholder, `npm run setup` replaces it
 * (ADR 0029); updates leave the values alone, as the generator settings never change.
 */
export class StripeSecrets extends Construct {
  readonly secrets: Readonly<Record<StripeSecretName, Secret>>;

  constructor(scope: Construct, id: string, props: StripeSecretsProps) {
    super(scope, id);

    const make = (name: StripeSecretName): Secret => {
      const spec = STRIPE_SECRETS[name];
      const secret = new Secret(this, spec.id, {
        description: `Live Aquatics (${props.stage}): JSON {"${spec.jsonKey}": "${spec.example}"}, read by ${spec.readers}; set by npm run setup -- --stage ${props.stage} (docs/deploy.md)`,
        // A random string that is not JSON: a function that runs before the operator's step fails
        // at cold start with a clear config error instead of calling Stripe with a guessable key.
        generateSecretString: { passwordLength: 32, excludePunctuation: true },
        // Kept when the stack is deleted (the webhook signing secret goes with it otherwise), but
        // removed when the stack's first create fails, so a retry starts clean.
        removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
      });
      acknowledgeNag(
        secret,
        'AwsSolutions-SMG4',
        'Stripe API keys and webhook signing secrets are issued and rolled in the Stripe Dashboard; Secrets Manager has no way to rotate them. Control: the rolling procedure in docs/deploy.md, read access granted only to the functions that use this secret, encryption with the account key.',
      );
      return secret;
    };
    this.secrets = {
      checkoutKey: make('checkoutKey'),
      fulfilmentKey: make('fulfilmentKey'),
      webhookSigningSecret: make('webhookSigningSecret'),
    };
  }

  /** Lets a function read one secret (GetSecretValue, DescribeSecret on that secret only). */
  grantRead(name: StripeSecretName, grantee: IGrantable): Grant {
    return this.secrets[name].grantRead(grantee);
  }
}

/** Props of {@link ForecastKeySecret} and {@link VapidKeySecret}. */
export interface StageSecretProps {
  /** Deployment stage, shown in the secret's description. */
  readonly stage: string;
}

/** A secret made empty (plus the filler CloudFormation needs) and filled by setup; never rotated. */
class SetUpSecret extends Construct {
  readonly secret: Secret;

  constructor(
    scope: Construct,
    id: string,
    secret: { id: string; description: string; empty: Record<string, string>; noRotation: string },
  ) {
    super(scope, id);
    this.secret = new Secret(this, secret.id, {
      description: secret.description,
      generateSecretString: {
        secretStringTemplate: JSON.stringify(secret.empty),
        generateStringKey: 'placeholder',
        passwordLength: 8,
        excludePunctuation: true,
      },
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    acknowledgeNag(this.secret, 'AwsSolutions-SMG4', secret.noRotation);
  }

  /** Lets a function read the secret (GetSecretValue, DescribeSecret on this secret only). */
  grantRead(grantee: IGrantable): Grant {
    return this.secret.grantRead(grantee);
  }
}

/** Open-Meteo's commercial key (ADR 0036); empty means the free endpoint, so the check works before setup. */
export class ForecastKeySecret extends SetUpSecret {
  constructor(scope: Construct, id: string, props: StageSecretProps) {
    super(scope, id, {
      id: 'OpenMeteoKey',
      description: `Live Aquatics (${props.stage}): JSON {"${OPEN_METEO_KEY_JSON_KEY}": "<Open-Meteo API key, or empty for the free endpoint>"}, read by weather-notice, admin-api; set by npm run setup -- --stage ${props.stage} (docs/deploy.md)`,
      empty: { [OPEN_METEO_KEY_JSON_KEY]: '' },
      noRotation:
        'Open-Meteo issues and rolls its API keys in its own customer portal; Secrets Manager cannot rotate them. Control: read access granted only to the two functions that ask for forecasts, encryption with the account key, the key in no template or log.',
    });
  }
}

/**
 * The VAPID key pair (RFC 8292, ADR 0056) signing the merchant's pushes; empty until setup makes it.
 * A new pair silences every device until it subscribes again.
 */
export class VapidKeySecret extends SetUpSecret {
  constructor(scope: Construct, id: string, props: StageSecretProps) {
    const { publicKey, privateKey } = VAPID_SECRET_JSON_KEYS;
    super(scope, id, {
      id: 'VapidKeys',
      description: `Live Aquatics (${props.stage}): JSON {"${publicKey}": "<base64url>", "${privateKey}": "<base64url>"}, read by stripe-webhook, reconcile-orders, create-checkout, admin-api; made by npm run setup -- --stage ${props.stage} (docs/deploy.md)`,
      empty: { [publicKey]: '', [privateKey]: '' },
      noRotation:
        'Rotating the VAPID pair would silence every subscribed device until the merchant turns notifications on again. Control: setup makes it once; read access only for the functions that push and the admin API; encryption with the account key.',
    });
  }
}
