import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ShopDataStack } from '../../infra/lib/data-stack';
import type { ShopStack } from '../../infra/lib/shop-stack';
import { fromDataStack, logicalIdOf, statementsOfRole, synthShop } from './support';

const ADMIN_ROUTE_KEYS = [
  'GET /functions/v1/admin/capacity',
  'GET /functions/v1/admin/dispatch-csv',
  'GET /functions/v1/admin/order',
  'GET /functions/v1/admin/orders',
  'GET /functions/v1/admin/packing-slips',
  'GET /functions/v1/admin/push/key',
  'GET /functions/v1/admin/standing-orders',
  'GET /functions/v1/admin/status',
  'GET /functions/v1/admin/weather',
  'GET /functions/v1/admin/weather/thresholds',
  'POST /functions/v1/admin/capacity',
  'POST /functions/v1/admin/orders/address',
  'POST /functions/v1/admin/orders/delay',
  'POST /functions/v1/admin/orders/delay-at-risk',
  'POST /functions/v1/admin/orders/dispatch',
  'POST /functions/v1/admin/orders/page-link',
  'POST /functions/v1/admin/orders/refund',
  'POST /functions/v1/admin/orders/refund-part',
  'POST /functions/v1/admin/orders/tracking',
  'POST /functions/v1/admin/orders/tracking-import',
  'POST /functions/v1/admin/push/subscribe',
  'POST /functions/v1/admin/push/unsubscribe',
  'POST /functions/v1/admin/requests/decline',
  'POST /functions/v1/admin/requests/payment',
  'POST /functions/v1/admin/shop/pause',
  'POST /functions/v1/admin/shop/resume',
  'POST /functions/v1/admin/standing-orders/cancel',
  'POST /functions/v1/admin/weather/thresholds',
];

type Resource = { Properties: Record<string, unknown> };

const PROD = {
  stage: 'prod',
  stripeLivemode: 'true',
  senderEmail: 'orders@daphnia-direct.co.uk',
  merchantEmail: 'owner@daphnia-direct.co.uk',
  sellerName: 'Daphnia Direct Ltd',
  sellerAddress: '4 Pond Lane, Norwich NR1 1AA',
  sellerEmail: 'hello@daphnia-direct.co.uk',
};

describe('MerchantAdmin', () => {
  let stack: ShopStack;
  let data: ShopDataStack;
  let template: Template;
  let prod: Template;

  beforeAll(() => {
    ({ stack, data, template } = synthShop());
    ({ template: prod } = synthShop(PROD));
  }, 120_000);

  it('has a user pool nobody can sign up to, signing in by email, with invitations', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      AdminCreateUserConfig: Match.objectLike({ AllowAdminCreateUserOnly: true }),
      UsernameAttributes: ['email'],
    });
  });

  it('requires TOTP MFA outside local/dev, and offers it in dev', () => {
    prod.hasResourceProperties('AWS::Cognito::UserPool', {
      MfaConfiguration: 'ON',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
    });
    template.hasResourceProperties('AWS::Cognito::UserPool', { MfaConfiguration: 'OPTIONAL' });
  });

  it('has the merchants group', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolGroup', {
      GroupName: 'merchants',
      UserPoolId: { Ref: logicalIdOf(stack.admin.userPool) },
    });
  });

  it('gives the browser a public client: code + PKCE to /admin, 30-minute tokens with refresh', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthFlowsUserPoolClient: true,
      CallbackURLs: [
        Match.objectLike({ 'Fn::Join': ['', Match.arrayWith(['/admin'])] }),
        'http://localhost:47815/callback',
        'http://localhost:47816/callback',
        'http://localhost:47817/callback',
      ],
      IdTokenValidity: 30,
      AccessTokenValidity: 30,
      TokenValidityUnits: Match.objectLike({ IdToken: 'minutes', AccessToken: 'minutes' }),
    });
  });

  it("lets the CLI sign in on the same public client, back to the operator's machine, not signing out there", () => {
    const clients = Object.values(template.findResources('AWS::Cognito::UserPoolClient')) as Resource[];
    expect(clients).toHaveLength(1);
    const logout = clients[0]?.Properties.LogoutURLs;
    expect(JSON.stringify(logout)).not.toContain('localhost');
    expect(clients[0]?.Properties.SupportedIdentityProviders).toEqual(['COGNITO']);
  });

  it("lets sign-out revoke the page's refresh token (Cognito's /oauth2/revoke)", () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', { EnableTokenRevocation: true });
  });

  it('puts the Cognito JWT authorizer on every admin route, and on no other route', () => {
    const authorizers = template.findResources('AWS::ApiGatewayV2::Authorizer', {
      Properties: { AuthorizerType: 'JWT' },
    });
    const [jwtId] = Object.keys(authorizers);
    expect(Object.keys(authorizers)).toHaveLength(1);
    const jwt = Object.values(authorizers)[0] as Resource;
    expect(jwt.Properties.JwtConfiguration).toMatchObject({
      Audience: [{ Ref: logicalIdOf(stack.admin.client) }],
    });

    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')) as Resource[];
    const withJwt = routes.filter(
      (r) =>
        r.Properties.AuthorizationType === 'JWT' &&
        JSON.stringify(r.Properties.AuthorizerId).includes(String(jwtId)),
    );
    expect(withJwt.map((r) => r.Properties.RouteKey).sort()).toEqual(ADMIN_ROUTE_KEYS);
    const publicRoutes = routes.filter(
      (r) =>
        !String(r.Properties.RouteKey).startsWith('GET /functions/v1/admin') &&
        !String(r.Properties.RouteKey).includes('/functions/v1/admin/'),
    );
    expect(publicRoutes).toHaveLength(7);
    for (const route of publicRoutes) expect(route.Properties.AuthorizationType).toBe('CUSTOM');
  });

  it('forwards Authorization on the admin path: its own behaviour, caching off, AllViewerExceptHostHeader, every method', () => {
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        CacheBehaviors: Match.arrayWith([
          Match.objectLike({
            PathPattern: '/functions/v1/admin/*',
            // Managed-CachingDisabled and Managed-AllViewerExceptHostHeader.
            CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad',
            OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac',
            AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
            ViewerProtocolPolicy: 'https-only',
          }),
        ]),
      }),
    });
    const distribution = Object.values(
      template.findResources('AWS::CloudFront::Distribution'),
    )[0] as Resource;
    const behaviors = (
      distribution.Properties.DistributionConfig as { CacheBehaviors: Array<{ PathPattern: string }> }
    ).CacheBehaviors;
    // CloudFront takes the first match: the admin pattern must come before the API's.
    expect(behaviors.map((b) => b.PathPattern)).toEqual([
      '/functions/v1/admin/*',
      '/functions/v1/*',
      '/order/*',
    ]);
  });

  it('lets the admin function touch orders, requests, the settings item, cached forecasts, the capacity days, client holds, the push subscriptions and standing orders only, query the two indexes and scan for the standing orders', () => {
    const roleId = logicalIdOf(stack.functions.adminApi.function.role ?? stack);
    const dynamo = statementsOfRole(template, roleId).filter((s) =>
      JSON.stringify(s.Action).includes('dynamodb:'),
    );
    expect(dynamo).toEqual([
      expect.objectContaining({
        Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['CAPACITY#*'] } },
      }),
      expect.objectContaining({
        Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['CLIENT_HOLDS#*'] } },
      }),
      // The standing orders' list: a Scan of the table, filtered on STANDING_ORDER# (ADR 0061); and
      // the shop's pause goes through the active ones by their sparse index (ADR 0060).
      expect.objectContaining({
        Action: 'dynamodb:Scan',
        Resource: [
          expect.anything(),
          {
            'Fn::Join': ['', [expect.anything(), '/index/byActiveStandingOrder']],
          },
        ],
      }),
      // The merchants' push subscriptions, that one item (ADR 0056).
      expect.objectContaining({
        Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
        Condition: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['PUSH_SUBSCRIPTIONS#shop'] } },
      }),
      expect.objectContaining({
        Action: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
        Condition: {
          'ForAllValues:StringLike': {
            'dynamodb:LeadingKeys': [
              'ORDER#*',
              'REQUEST#*',
              'SETTINGS#shop',
              'FORECAST#*',
              'IDEMPOTENCY#*',
              'STANDING_ORDER#*',
            ],
          },
        },
      }),
      expect.objectContaining({ Action: 'dynamodb:Query' }),
    ]);
    expect(JSON.stringify(dynamo[5]?.Resource)).toContain('/index/byDispatchDate');
    // The table itself and the active standing orders' index: no other index is scanned.
    expect(JSON.stringify(dynamo[2]?.Resource).match(/\/index\/\w+/g)).toEqual([
      '/index/byActiveStandingOrder',
    ]);
  });

  it('keeps a sign-in 30 days: the refresh token the session cookie holds (ADR 0055)', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      RefreshTokenValidity: 43200,
      TokenValidityUnits: Match.objectLike({ RefreshToken: 'minutes' }),
    });
  });

  it('routes the three session paths to the admin function without the JWT authorizer, told its client and pool, and lets it sign a merchant out everywhere', () => {
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')) as Resource[];
    const session = routes.filter((r) =>
      String(r.Properties.RouteKey).includes('/functions/v1/admin/session/'),
    );
    expect(session.map((r) => r.Properties.RouteKey).sort()).toEqual([
      'POST /functions/v1/admin/session/refresh',
      'POST /functions/v1/admin/session/sign-out',
      'POST /functions/v1/admin/session/start',
    ]);
    for (const route of session) expect(route.Properties.AuthorizationType).toBe('NONE');
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          ADMIN_CLIENT_ID: { Ref: logicalIdOf(stack.admin.client) },
          ADMIN_USER_POOL_ID: { Ref: logicalIdOf(stack.admin.userPool) },
          ADMIN_SIGN_IN_URL: Match.anyValue(),
        }),
      },
    });
    const roleId = logicalIdOf(stack.functions.adminApi.function.role ?? stack);
    const cognito = statementsOfRole(template, roleId).filter((s) =>
      JSON.stringify(s.Action).includes('cognito-idp:'),
    );
    expect(cognito).toEqual([
      expect.objectContaining({
        Action: 'cognito-idp:AdminUserGlobalSignOut',
        Resource: { 'Fn::GetAtt': [logicalIdOf(stack.admin.userPool), 'Arn'] },
      }),
    ]);
  });

  it('lets the admin function read exactly five secrets: the fulfilment key, the origin-verify value, Open-Meteo’s key, the order page’s and the VAPID pair', () => {
    const roleId = logicalIdOf(stack.functions.adminApi.function.role ?? stack);

    const secrets = statementsOfRole(template, roleId).filter((s) =>
      JSON.stringify(s.Action).includes('secretsmanager:'),
    );

    // Not the checkout key, not the webhook signing secret: refunds, payment links and the pause's
    // expiries are the back office's work, with the fulfilment key the webhook and the CLI use.
    // The data stack's secret reaches this stack as one of its outputs (fromDataStack finds it).
    expect(secrets).toEqual([
      {
        Effect: 'Allow',
        Action: ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue'],
        Resource: [
          // The weather check's forecasts, with the commercial key when setup stored one.
          fromDataStack(data, { Ref: 'ForecastKeyOpenMeteoKey80CFEFAF' }),
          // The order page's sealing key: the revoke's new link, and every order email's.
          fromDataStack(data, { Ref: 'OrderPageSecret8A5ED490' }),
          fromDataStack(data, { Ref: 'StripeSecretsStripeFulfilmentKey197039D3' }),
          // The VAPID pair: its public key for the devices that subscribe (ADR 0056).
          fromDataStack(data, { Ref: 'VapidKeyVapidKeysD9BF9B6A' }),
          { Ref: 'OriginVerifySecret1DED2FB3' },
        ],
      },
    ]);
  });
});

describe("MerchantAdmin's invitations", () => {
  it("come from Cognito's own sender until setup names a verified SES identity", () => {
    const { template } = synthShop(PROD);

    const pools = template.findResources('AWS::Cognito::UserPool');
    expect(Object.values(pools).map((pool) => pool.Properties.EmailConfiguration)).toEqual([undefined]);
  });

  it("come from the shop's sender through SES, as the shop, once its domain is verified", () => {
    const { template } = synthShop({
      ...PROD,
      shopName: 'Daphnia Direct',
      cognitoSenderIdentity: 'daphnia-direct.co.uk',
    });

    template.hasResourceProperties('AWS::Cognito::UserPool', {
      EmailConfiguration: {
        EmailSendingAccount: 'DEVELOPER',
        From: 'Daphnia Direct <orders@daphnia-direct.co.uk>',
        SourceArn: {
          'Fn::Join': [
            '',
            ['arn:aws:ses:eu-west-2:', { Ref: 'AWS::AccountId' }, ':identity/daphnia-direct.co.uk'],
          ],
        },
      },
    });
  });

  it('use the address identity when the address alone is verified', () => {
    const { template } = synthShop({ ...PROD, cognitoSenderIdentity: 'orders@daphnia-direct.co.uk' });

    template.hasResourceProperties('AWS::Cognito::UserPool', {
      EmailConfiguration: Match.objectLike({
        SourceArn: {
          'Fn::Join': ['', Match.arrayWith([':identity/orders@daphnia-direct.co.uk'])],
        },
      }),
    });
  });

  it('refuse an identity that is not the sender', () => {
    expect(() => synthShop({ ...PROD, cognitoSenderIdentity: 'other.co.uk' })).toThrow(
      "cognitoSenderIdentity: must be the sender's address orders@daphnia-direct.co.uk or its domain",
    );
  });
});
