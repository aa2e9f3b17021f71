import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalShop, startLocalShop } from '../../local/local-shop';
import { signInLocally } from '../support/local-sign-in';

let shop: LocalShop;

beforeAll(async () => {
  const webRoot = mkdtempSync(join(tmpdir(), 'local-shop-admin-'));
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>shop</title>');
  shop = await startLocalShop({
    port: 0,
    dynamoPort: 0,
    sesPort: 0,
    simulatorPort: 0,
    dataDir: undefined,
    webRoot,
    stripe: undefined,
    adminUsers: [
      { email: 'merchant@live-aquatics.test', password: 'Daphnia-Local-2026', groups: ['merchants'] },
      { email: 'helper@live-aquatics.test', password: 'Not-A-Merchant-2026', groups: [] },
    ],
    log: () => undefined,
  });
}, 60_000);
afterAll(() => shop?.close());

function signIn(email: string, password: string) {
  return signInLocally({
    signInUrl: shop.identityProvider.url,
    clientId: shop.identityProvider.clientId,
    redirectUri: `${shop.url}/admin`,
    email,
    password,
  });
}

describe('the local shop with the admin sign-in', () => {
  it('serves /admin-config.json naming its identity provider and app client, never cached', async () => {
    const response = await fetch(`${shop.url}/admin-config.json`);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.json()).toEqual({
      signInUrl: shop.identityProvider.url,
      clientId: 'local-admin-page',
    });
    expect(shop.identityProvider.url).toMatch(/^http:\/\/localhost:\d+$/);
  });

  it('answers an admin route 401 without a token, before the function runs', async () => {
    const response = await fetch(`${shop.url}/functions/v1/admin/orders`);

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: 'Unauthorized' });
  });

  it('answers 401 to a token the identity provider did not sign', async () => {
    const { id_token } = await signIn('merchant@live-aquatics.test', 'Daphnia-Local-2026');
    const [header, payload] = id_token.split('.');

    const response = await fetch(`${shop.url}/functions/v1/admin/orders`, {
      headers: { authorization: `Bearer ${header}.${payload}.c2lnbmF0dXJl` },
    });

    expect(response.status).toBe(401);
  });

  it("answers 200 with the merchant's ID token from the identity provider", async () => {
    const { id_token } = await signIn('merchant@live-aquatics.test', 'Daphnia-Local-2026');

    const response = await fetch(`${shop.url}/functions/v1/admin/orders`, {
      headers: { authorization: `Bearer ${id_token}` },
    });

    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('routes every admin path to the admin function, not only the ones it knows today', async () => {
    const { id_token } = await signIn('merchant@live-aquatics.test', 'Daphnia-Local-2026');

    const response = await fetch(`${shop.url}/functions/v1/admin/no-such-route`, {
      headers: { authorization: `Bearer ${id_token}` },
    });

    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'No such admin route.' });
  });

  it('answers 403 to a signed-in user outside the merchants group', async () => {
    const { id_token } = await signIn('helper@live-aquatics.test', 'Not-A-Merchant-2026');

    const response = await fetch(`${shop.url}/functions/v1/admin/orders`, {
      headers: { authorization: `Bearer ${id_token}` },
    });

    expect(response.status).toBe(403);
  });
});
