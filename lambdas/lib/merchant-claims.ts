import * as z from 'zod/mini';
import { MERCHANTS_GROUP } from '../../shared/admin-api-paths';
import { ADMIN_FORBIDDEN_CODES, type AdminErrorResponse } from '../../shared/admin-responses';
import { HttpError, type HttpEvent } from './http';

export const AUTH_ERRORS = {
  unauthenticated: 'Sign in first.',
  forbidden: 'This account is not a merchant of this shop.',
} as const;

/**
 * The verified token's claims as API Gateway's JWT authorizer passes them (and the local
 * verifier, local/jwt-authorizer.ts). API Gateway gives an array claim as one string,
 * "[merchants other]"; a verifier passing the token's own JSON gives an array.
 */
const claimsSchema = z.object({
  sub: z.string(),
  email: z.optional(z.string()),
  username: z.optional(z.string()),
  'cognito:username': z.optional(z.string()),
  'cognito:groups': z.optional(z.union([z.array(z.string()), z.string()])),
});

const contextSchema = z.object({
  authorizer: z.object({ jwt: z.object({ claims: claimsSchema }) }),
});

/**
 * The groups of a `cognito:groups` claim in either shape. API Gateway writes an array claim as
 * "[" + its items joined by single spaces + "]", and a Cognito group name holds no whitespace,
 * so splitting on the space gives the names back exactly; a comma, a bracket or any other mark is
 * part of a name (`staff,merchants` is one group, not `merchants`).
 */
function groupsOf(claim: string | string[] | undefined): string[] {
  if (claim === undefined) return [];
  if (Array.isArray(claim)) return claim;
  // A plain string claim (not an array) is one group, as it stands.
  if (!(claim.startsWith('[') && claim.endsWith(']'))) return [claim];
  return claim
    .slice(1, -1)
    .split(' ')
    .filter((group) => group !== '');
}

/** Who acted, for the order's history: the signed-in merchant. */
export interface Merchant {
  /** The email (ID token), else the user name (access token), else the subject. */
  actor: string;
  /** The user's unchanging id: whose intention keys (an email can change). */
  sub: string;
}

/**
 * The merchant behind a request, from the claims the JWT authorizer verified. The authorizer
 * already refused a missing, expired or forged token before the Lambda ran; this refuses a
 * request without claims anyway (a route deployed without the authorizer must not be open) and a
 * signed-in user outside the `merchants` group, on every call.
 * @throws HttpError 401 without verified claims, 403 (`not-a-merchant`) outside the group.
 */
export function requireMerchant(event: HttpEvent): Merchant {
  const parsed = contextSchema.safeParse(event.requestContext);
  if (!parsed.success) throw new HttpError(401, { error: AUTH_ERRORS.unauthenticated });
  const claims = parsed.data.authorizer.jwt.claims;
  if (!groupsOf(claims['cognito:groups']).includes(MERCHANTS_GROUP)) {
    throw new HttpError(403, {
      error: AUTH_ERRORS.forbidden,
      code: ADMIN_FORBIDDEN_CODES.notAMerchant,
    } satisfies AdminErrorResponse);
  }
  return {
    actor: claims.email ?? claims['cognito:username'] ?? claims.username ?? claims.sub,
    sub: claims.sub,
  };
}
