import * as z from 'zod/mini';
import { MERCHANTS_GROUP } from '../../shared/admin-api-paths';
import { ADMIN_FORBIDDEN_CODES, type AdminErrorResponse } from '../../shared/admin-responses';
import { HttpError, type HttpEvent } from './http';

export const AUTH_ERRORS = {
  unauthenticated: 'Sign in first.',
  forbidden: 'This account is not a merchant of this shop.',
} as const;

/**
 * The verified claims as API Gateway's JWT authorizer (or local/jwt-authorizer.ts) passes them: an array
 * claim arrives as one string, "[merchants other]", from API Gateway, an array from a verifier passing JSON.
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
 * API Gateway writes an array claim as "[" + items joined by single spaces + "]", and a Cognito group name
 * holds no whitespace, so splitting on spaces is exact; any other mark is part of a name (`a,merchants`).
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
 * The merchant behind a request, checked on every call although the authorizer refused bad tokens already: a
 * route deployed without the authorizer must not be open, and a user outside `merchants` is refused.
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
