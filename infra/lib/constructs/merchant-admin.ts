import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { type HttpApi, HttpMethod, type HttpRoute } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpUserPoolAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import {
  AccountRecovery,
  CfnUserPoolGroup,
  ManagedLoginVersion,
  Mfa,
  OAuthScope,
  UserPool,
  type UserPoolClient,
  type UserPoolDomain,
  UserPoolEmail,
} from 'aws-cdk-lib/aws-cognito';
import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import {
  DISPATCH_DATE_INDEX,
  FORECAST_KEY_PREFIX,
  IDEMPOTENCY_KEY_PREFIX,
  ORDER_KEY_PREFIX,
  REFERENCE_INDEX,
  REQUEST_KEY_PREFIX,
  SETTINGS_KEY,
  STANDING_ORDER_KEY_PREFIX,
} from '../../../lambdas/domain/storage/orders-table';
import { MERCHANTS_GROUP } from '../../../shared/admin-api-paths';
import { CLI_LOOPBACK_PORTS, cliCallbackUrl } from '../../../shared/admin-config';
import { ADMIN_API_ROUTES } from '../../../shared/admin-routes';
import { ADMIN_REFRESH_TOKEN_DAYS, ADMIN_SESSION_ROUTES } from '../../../shared/admin-session-routes';
import { acknowledgeNag } from '../nag';

/** Every admin route: `METHOD path`, each with the JWT authorizer. */
export const ADMIN_ROUTES: ReadonlyArray<{ method: HttpMethod; path: string }> = Object.values(
  ADMIN_API_ROUTES,
).map(({ method, path }) => ({ method: HttpMethod[method], path }));

/** How long an ID or access token lives; the page renews it with the refresh token. */
export const ADMIN_TOKEN_VALIDITY = Duration.minutes(30);
/** How long a sign-in lasts without a new password (and MFA code): the session cookie's too (ADR 0055). */
export const ADMIN_REFRESH_VALIDITY = Duration.days(ADMIN_REFRESH_TOKEN_DAYS);

/** Managed login's base URL, as `UserPoolDomain.baseUrl()` renders it, for the CSP that needs it first. */
export function managedLoginUrl(domainPrefix: string, region: string): string {
  return `https://${domainPrefix}.auth.${region}.amazoncognito.com`;
}

export interface MerchantAdminProps {
  /** The shop's HTTP API: the admin routes are added to it. */
  readonly httpApi: HttpApi;
  /** The admin-api Lambda, behind every admin route (and the session routes, which it is told the client of). */
  readonly handler: LambdaFunction;
  /** The site's origin, e.g. `https://shop.example`: managed login returns to `<siteUrl>/admin`. */
  readonly siteUrl: string;
  /** TOTP MFA required (every stage but local/dev), or optional. */
  readonly requireMfa: boolean;
  /** The managed login's Cognito domain prefix, unique in the region, e.g. `live-aquatics-prod`. */
  readonly domainPrefix: string;
  /** The orders table, for the admin function's least-privilege grant. */
  readonly tableArn: string;
  /** Invitations through SES as the shop from a verified `identity`; absent: Cognito's own sender. */
  readonly invitationSender?: { fromEmail: string; fromName: string; identity: string } | undefined;
}

/**
 * The merchant's sign-in: a Cognito pool nobody signs up to, TOTP MFA, a `merchants` group, a public
 * PKCE client through managed login, and every admin route behind an `HttpUserPoolAuthorizer`.
 */
export class MerchantAdmin extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;
  readonly domain: UserPoolDomain;
  readonly routes: HttpRoute[];

  constructor(scope: Construct, id: string, props: MerchantAdminProps) {
    super(scope, id);

    this.userPool = this.createUserPool(props);
    new CfnUserPoolGroup(this, 'MerchantsGroup', {
      userPoolId: this.userPool.userPoolId,
      groupName: MERCHANTS_GROUP,
      description: 'May use the admin page and API',
    });

    this.client = this.addPageClient(props.siteUrl);

    this.domain = this.userPool.addDomain('ManagedLogin', {
      cognitoDomain: { domainPrefix: props.domainPrefix },
      managedLoginVersion: ManagedLoginVersion.NEWER_MANAGED_LOGIN,
    });

    const authorizer = new HttpUserPoolAuthorizer('MerchantToken', this.userPool, {
      userPoolClients: [this.client],
    });
    this.grantAdmin(props.handler, props.tableArn);
    const integration = new HttpLambdaIntegration('AdminIntegration', props.handler);
    this.routes = ADMIN_ROUTES.flatMap(({ method, path }) =>
      props.httpApi.addRoutes({ path, methods: [method], integration, authorizer }),
    );
    this.addSessionRoutes(props, integration);

    this.acknowledgeNags(props.requireMfa);
  }

  /** No sign-up, email as the user name, TOTP MFA, 12-character passwords, invitations from the shop. */
  private createUserPool(props: MerchantAdminProps): UserPool {
    return new UserPool(this, 'Merchants', {
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      mfa: props.requireMfa ? Mfa.REQUIRED : Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      ...(props.invitationSender !== undefined && {
        email: UserPoolEmail.withSES({
          fromEmail: props.invitationSender.fromEmail,
          fromName: props.invitationSender.fromName,
          ...(props.invitationSender.identity !== props.invitationSender.fromEmail && {
            sesVerifiedDomain: props.invitationSender.identity,
          }),
          // The shop's own region, where its identity is verified (explicit for an env-agnostic stack).
          sesRegion: Stack.of(this).region,
        }),
      }),
      userInvitation: {
        emailSubject: 'Your Live Aquatics shop admin account',
        emailBody:
          "You can now manage the shop. Your user name is {username} and your temporary password is {####}. Sign in at the shop's /admin page.",
      },
      // The merchants are re-created with one command; a torn-down stage should not keep them.
      removalPolicy: RemovalPolicy.DESTROY,
    });
  }

  /** The browser's public client: authorization code with PKCE through managed login, no secret. */
  private addPageClient(siteUrl: string): UserPoolClient {
    const callbackUrl = `${siteUrl}/admin`;
    return this.userPool.addClient('AdminPage', {
      generateSecret: false,
      authFlows: { userSrp: true },
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL],
        // The CLI's sign-in comes back to the operator's machine (ADR 0038): the same public client.
        callbackUrls: [callbackUrl, ...CLI_LOOPBACK_PORTS.map(cliCallbackUrl)],
        logoutUrls: [callbackUrl],
      },
      idTokenValidity: ADMIN_TOKEN_VALIDITY,
      accessTokenValidity: ADMIN_TOKEN_VALIDITY,
      refreshTokenValidity: ADMIN_REFRESH_VALIDITY,
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
    });
  }

  private acknowledgeNags(requireMfa: boolean): void {
    acknowledgeNag(
      this.userPool,
      'AwsSolutions-COG8',
      'Threat protection needs the Plus feature plan. Controls: one or two merchants, created by the operator only (no self sign-up), TOTP MFA required outside local/dev, 12-character passwords, 30-minute tokens.',
    );
    if (!requireMfa) {
      acknowledgeNag(
        this.userPool,
        'AwsSolutions-COG2',
        'MFA is optional in local/dev only. Control: those stages hold test data only (Stripe test mode), and every other stage requires TOTP MFA (test/infra/merchant-admin.test.ts).',
      );
    }
  }

  /**
   * The session routes (ADR 0055): no authorizer, the refresh-token cookie is their credential (the
   * Lambda checks the origin-verify header, then the Origin).
   */
  private addSessionRoutes(props: MerchantAdminProps, integration: HttpLambdaIntegration): void {
    for (const { method, path } of Object.values(ADMIN_SESSION_ROUTES))
      this.routes.push(...props.httpApi.addRoutes({ path, methods: [HttpMethod[method]], integration }));
    props.handler.addEnvironment('ADMIN_SIGN_IN_URL', this.domain.baseUrl());
    props.handler.addEnvironment('ADMIN_CLIENT_ID', this.client.userPoolClientId);
    props.handler.addEnvironment('ADMIN_USER_POOL_ID', this.userPool.userPoolId);
    Grant.addToPrincipal({
      grantee: props.handler,
      actions: ['cognito-idp:AdminUserGlobalSignOut'],
      resourceArns: [this.userPool.userPoolArn],
    });
  }

  /** The admin Lambda's table access: orders and requests, the settings item, and the indexes it lists by. */
  grantAdmin(grantee: IGrantable, tableArn: string): void {
    Grant.addToPrincipal({
      grantee,
      actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem'],
      resourceArns: [tableArn],
      conditions: {
        'ForAllValues:StringLike': {
          // FORECAST#: the weather check's cache of each place's forecast, once a day.
          // IDEMPOTENCY#: each action's intention key and its kept answer.
          'dynamodb:LeadingKeys': [
            `${ORDER_KEY_PREFIX}*`,
            `${REQUEST_KEY_PREFIX}*`,
            SETTINGS_KEY,
            `${FORECAST_KEY_PREFIX}*`,
            `${IDEMPOTENCY_KEY_PREFIX}*`,
            // STANDING_ORDER#: the shop pause's mark and the merchant's cancel (ADR 0061).
            `${STANDING_ORDER_KEY_PREFIX}*`,
          ],
        },
      },
    });
    Grant.addToPrincipal({
      grantee,
      actions: ['dynamodb:Query'],
      resourceArns: [
        `${tableArn}/index/${DISPATCH_DATE_INDEX.name}`,
        `${tableArn}/index/${REFERENCE_INDEX.name}`,
      ],
    });
  }
}
