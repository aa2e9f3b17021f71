import { Duration } from 'aws-cdk-lib';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { CfnSecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { acknowledgeNag } from '../nag';
import { ShopFunction } from './shop-function';

/** The header CloudFront adds to API requests (as lambdas/lib/origin-verify.ts reads it). */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';
/** The viewer's `ip:port`: the authorizer's second identity source, so its cache is per viewer. */
export const VIEWER_ADDRESS_HEADER = 'cloudfront-viewer-address';

/** The secret's old logical ID: a new one would replace the secret and the value CloudFront sends. */
const SECRET_LOGICAL_ID = 'OriginVerifySecret1DED2FB3';

export interface OriginVerifyGateProps {
  /** Repository root, for the authorizer's Lambda entry. */
  readonly repoRoot: string;
  /** The stage, named in the secret's description. */
  readonly stage: string;
}

/** Only CloudFront sends the secret, so the execute-api URL cannot go around the WAF. */
export class OriginVerifyGate extends Construct {
  readonly secret: Secret;
  /** The authorizer's function (the construct's default child, so its IDs are those it had alone). */
  readonly verifier: ShopFunction;
  readonly authorizer: HttpLambdaAuthorizer;

  constructor(scope: Construct, id: string, props: OriginVerifyGateProps) {
    super(scope, id);
    this.secret = new Secret(this, 'Secret', {
      description: `Live Aquatics (${props.stage}): the value CloudFront sends in ${ORIGIN_VERIFY_HEADER} to the API`,
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    const resource = this.secret.node.defaultChild;
    if (!(resource instanceof CfnSecret)) throw new Error('The origin-verify secret has no CfnSecret');
    resource.overrideLogicalId(SECRET_LOGICAL_ID);
    acknowledgeNag(
      this.secret,
      'AwsSolutions-SMG4',
      'Rotation would change the value the authorizer expects before CloudFront sends it. Control: the value never leaves AWS (CloudFront origin config and this secret), only the authorizer may read it, and docs/deploy.md says how to roll it with a deploy.',
    );
    this.verifier = new ShopFunction(this, 'Default', {
      repoRoot: props.repoRoot,
      entry: 'lambdas/handlers/origin-verify/handler.ts',
      description: 'Lets API requests in only when they came through CloudFront',
      timeout: Duration.seconds(5),
      environment: { ORIGIN_VERIFY_SECRET_ID: this.secret.secretArn },
    });
    this.secret.grantRead(this.verifier);
    // The cached answer's context (the viewer's address, for the access log) is keyed by the identity
    // sources, so they must hold the address or one client is logged as another. API Gateway refuses
    // a request without either header with a 401; CloudFront sends both on every API path.
    this.authorizer = new HttpLambdaAuthorizer('OriginVerify', this.verifier.function, {
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      identitySource: [`$request.header.${ORIGIN_VERIFY_HEADER}`, `$request.header.${VIEWER_ADDRESS_HEADER}`],
      resultsCacheTtl: Duration.minutes(5),
    });
  }
}
