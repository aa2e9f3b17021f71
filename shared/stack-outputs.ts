// The stacks' output keys: infra writes them; npm run setup, doctor and the CLI read them
// (describe-stacks) from here, without loading the CDK library. Renaming one breaks those readers.

/** The app stack's outputs. */
export const APP_OUTPUT_KEYS = {
  siteUrl: 'SiteUrl',
  apiUrl: 'ApiUrl',
  /** The API's own execute-api address: `npm run doctor` checks it refuses what bypasses CloudFront. */
  apiOriginUrl: 'ApiOriginUrl',
  stripeWebhookUrl: 'StripeWebhookUrl',
  ordersTableName: 'OrdersTableName',
  alarmTopicArn: 'AlarmTopicArn',
  distributionId: 'DistributionId',
  distributionDomainName: 'DistributionDomainName',
  apiAccessLogGroupName: 'ApiAccessLogGroupName',
  /** The fulfilment key's secret: what the ops CLI reads to call Stripe as the back office. */
  stripeSecretName: 'StripeSecretName',
  /** The merchants' user pool: `npm run orders -- merchant add` creates users in it. */
  adminUserPoolId: 'AdminUserPoolId',
  /** The admin page's app client (public, authorization code + PKCE). */
  adminClientId: 'AdminClientId',
  /** Managed login's base URL, where the admin page sends the merchant to sign in. */
  adminSignInUrl: 'AdminSignInUrl',
  /** The stage's CloudWatch dashboard (sold-out dispatch days, order requests). */
  dashboardUrl: 'DashboardUrl',
} as const;

/**
 * The data stack's outputs naming its secrets, where `npm run setup` stores the Stripe keys and
 * Open-Meteo's key, and makes the VAPID key pair (ADR 0056).
 */
export const SECRET_OUTPUT_KEYS = {
  checkoutKey: 'StripeCheckoutKeySecretName',
  fulfilmentKey: 'StripeFulfilmentKeySecretName',
  webhookSigningSecret: 'StripeWebhookSigningSecretName',
  forecastKey: 'OpenMeteoKeySecretName',
  vapidKey: 'VapidKeySecretName',
} as const;
