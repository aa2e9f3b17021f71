import { createSign, generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto';
import type { Jwks } from 'aws-jwt-verify/jwk';

/** The local user pool the tests' tokens come from (any issuer works: the verifier takes it as configured). */
export const TEST_ISSUER = 'http://127.0.0.1:9229/local_merchants';
export const TEST_CLIENT_ID = 'admin-page-test-client';

/** An RSA key that signs tokens, and its public half as a JWKS, as a user pool publishes it. */
export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  jwks: Jwks;
}

export function signingKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomUUID();
  const jwk = publicKey.export({ format: 'jwk' });
  return {
    kid,
    privateKey,
    jwks: { keys: [{ kty: 'RSA', kid, alg: 'RS256', use: 'sig', n: String(jwk.n), e: String(jwk.e) }] },
  };
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export interface TokenOptions {
  email?: string;
  groups?: string[];
  /** Seconds from now; negative for a token that has expired. */
  expiresIn?: number;
  issuer?: string;
  clientId?: string;
  /** `id` (with `aud`) or `access` (with `client_id`), as Cognito issues them. */
  use?: 'id' | 'access';
}

/** A Cognito-shaped RS256 token signed with `key`. */
export function signToken(key: SigningKey, options: TokenOptions = {}): string {
  const now = Math.floor(Date.now() / 1000);
  const clientId = options.clientId ?? TEST_CLIENT_ID;
  const use = options.use ?? 'id';
  const payload = {
    sub: randomUUID(),
    iss: options.issuer ?? TEST_ISSUER,
    token_use: use,
    ...(use === 'id' ? { aud: clientId, email: options.email ?? 'merchant@live-aquatics.test' } : {}),
    ...(use === 'access' ? { client_id: clientId, username: 'merchant-user' } : {}),
    'cognito:groups': options.groups ?? ['merchants'],
    iat: now - 60,
    auth_time: now - 60,
    exp: now + (options.expiresIn ?? 900),
  };
  const input = `${base64url({ alg: 'RS256', typ: 'JWT', kid: key.kid })}.${base64url(payload)}`;
  const signature = createSign('RSA-SHA256').update(input).sign(key.privateKey).toString('base64url');
  return `${input}.${signature}`;
}
