import { JwtVerifier } from 'aws-jwt-verify';
import { assertIsJwks, type Jwks } from 'aws-jwt-verify/jwk';
import type { JwtPayload } from 'aws-jwt-verify/jwt-model';
import { safeJsonParse } from 'aws-jwt-verify/safe-json-parse';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { HttpLambda } from './api-gateway-adapter';

/** What API Gateway's JWT authorizer is configured with: the user pool (issuer) and the app client. */
export interface JwtAuthorizerOptions {
  issuer: string;
  /** The app client id: an ID token's `aud`, an access token's `client_id`. */
  clientId: string;
  /** The issuer's keys: the local identity provider's JWKS, read over plain HTTP. */
  jwks: Jwks;
}

/** API Gateway's own answer when its JWT authorizer refuses a request; the function never runs. */
const UNAUTHORIZED = {
  statusCode: 401,
  headers: {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'www-authenticate': 'Bearer',
  },
  body: JSON.stringify({ message: 'Unauthorized' }),
};

/**
 * Claims as API Gateway hands them to the function: every value a string, an array as
 * "[a b]" (so `cognito:groups` arrives as "[merchants]").
 */
function asApiGatewayClaims(payload: JwtPayload): Record<string, string> {
  const claims: Record<string, string> = {};
  for (const [name, value] of Object.entries(payload)) {
    if (value === undefined || value === null) continue;
    claims[name] = Array.isArray(value)
      ? `[${value.map(String).join(' ')}]`
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  }
  return claims;
}

/**
 * The local stand-in for API Gateway's JWT authorizer (`HttpUserPoolAuthorizer`): a bearer token
 * from the `Authorization` header, its signature checked against the issuer's JWKS, its issuer,
 * expiry and not-before, and its audience the way API Gateway checks it (`aud` when present,
 * else `client_id`), all with aws-jwt-verify. A token that fails any check is answered 401 as API
 * Gateway answers it; a good one reaches the handler with its claims in
 * `requestContext.authorizer.jwt.claims`, so the handler cannot tell which verified it.
 */
export function withJwtAuthorizer(handler: HttpLambda, options: JwtAuthorizerOptions): HttpLambda {
  const verifier = JwtVerifier.create({
    issuer: options.issuer,
    audience: null,
    customJwtCheck: ({ payload }) => {
      const audience = payload.aud ?? payload.client_id;
      const audiences = Array.isArray(audience) ? audience : [audience];
      if (!audiences.includes(options.clientId)) throw new Error('Token is for another client');
    },
  });
  verifier.cacheJwks(options.jwks);
  return async (event) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(event.headers.authorization ?? '');
    const token = match?.[1];
    if (token === undefined) return UNAUTHORIZED;
    let payload: JwtPayload;
    try {
      payload = await verifier.verify(token);
    } catch {
      return UNAUTHORIZED;
    }
    const authorized: APIGatewayProxyEventV2 & {
      requestContext: { authorizer: { jwt: { claims: Record<string, string>; scopes: string[] | null } } };
    } = {
      ...event,
      requestContext: {
        ...event.requestContext,
        authorizer: {
          jwt: {
            claims: asApiGatewayClaims(payload),
            scopes: typeof payload.scope === 'string' ? payload.scope.split(' ') : null,
          },
        },
      },
    };
    return handler(authorized);
  };
}

/** The issuer's JWKS, read once at start (aws-jwt-verify itself fetches only over HTTPS). */
export async function fetchJwks(jwksUri: string): Promise<Jwks> {
  const response = await fetch(jwksUri);
  if (!response.ok) throw new Error(`JWKS at ${jwksUri} answered ${response.status}`);
  const body = safeJsonParse(await response.text());
  assertIsJwks(body);
  return body;
}
