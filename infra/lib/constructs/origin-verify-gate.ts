import { Duration } from 'aws-cdk-lib';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { CfnSecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { acknowledgeNag } from '../nag';
import { ShopFunction } from './shop-function';

/** The header CloudFront adds to API requests (as lambdas/lib/origin-verify.ts reads it). */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';
/**
 * Where CloudFront gives the viewer's address, `ip:port` (as lambdas/lib/http.ts reads it): the
 * authorizer's second identity source, so its cached answer, which carries the address, is per viewer.
 */
export const VIEWER_ADDRESS_HEADER = 'cloudfront-viewer-address';

/**
 * The secret's logical ID from when it was the stack's own child: a new one would replace the
 * secret, and with it the value CloudFront sends, in the next deploy.
 */
const SECRET_LOGICAL_ID = 'OriginVerifySecret1DED2FB3';

/** Props of {@link OriginVerifyGate}. */
export interface OriginVerifyGateProps {
  /** Repository root, for the authorizer's Lambda entry. */
  readonly repoRoot: string;
  /** The stage, named in the secret's description. */
  readonly stage: string;
}

/**
 * The API's gate: only CloudFront knows the secret's value (it sends it as a header on every API
 * request), and the authorizer refuses anything without it before any shop function runs, so the
 * execute-api URL cannot be used to go around the WAF.
 */
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
    // API Gateway caches the authorizer's answer by its identity sources, and the answer's context
    // (the viewer's address, for the access log) is reused with it: the cache key must hold what
    // the context carries, or one client's requests would be logged under another's address. The
    // address is `ip:port` and a browser keeps one connection for the page and its checkout, so
    // this costs about one authorizer call per customer visit. API Gateway refuses (401) a request
    // without either header before the authorizer runs: CloudFront sends both on every API path
    // (its origin custom header and the behaviour's origin request policy, website.ts).
    this.authorizer = new HttpLambdaAuthorizer('OriginVerify', this.verifier.function, {
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      identitySource: [`$request.header.${ORIGIN_VERIFY_HEADER}`, `$request.header.${VIEWER_ADDRESS_HEADER}`],
      resultsCacheTtl: Duration.minutes(5),
    });
  }
}
