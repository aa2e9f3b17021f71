// The merchant's group and the admin API's prefix (its routes: admin-routes.ts), apart from the
// shop's routes (public-routes.ts), which every page's first load carries.

/** The Cognito group whose members may use the admin API (the user pool's group, the Lambda's check). */
export const MERCHANTS_GROUP = 'merchants';

/** What every admin path starts with: CloudFront's behaviour and the local verifier match on it. */
export const ADMIN_API_PREFIX = '/functions/v1/admin/';
