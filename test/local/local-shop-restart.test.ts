import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clearStore } from 'aws-ses-v2-local/dist/store.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type LocalShop, startLocalShop } from '../../local/local-shop';
import { runCli } from '../../ops/cli';
import { signInSchema } from '../../ops/sign-in-store';

// Issue 48's "a local shop that remembers": `npm start` stopped and started again on the same
// `.local-data` (here a temporary folder, the same ports): yesterday's paid order is refunded
// from the CLI, signed in as before, and the inbox still lists the email sent before the stop.

let root = '';
let config = '';
let ports: Record<'port' | 'dynamoPort' | 'sesPort' | 'simulatorPort' | 'identityProviderPort', number>;
let shop: LocalShop | undefined;

function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer();
    probe.listen(0, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => done(port));
    });
  });
}

async function startShop(): Promise<LocalShop> {
  shop = await startLocalShop({
    ...ports,
    dataDir: join(root, 'dynamodb'),
    keepDir: join(root, 'stand-ins'),
    webRoot: join(root, 'web'),
    stripe: undefined,
    log: () => undefined,
  });
  return shop;
}

async function stopShop(): Promise<void> {
  await shop?.close();
  shop = undefined;
  // A new process starts with no inbox of its own (the package keeps one per process), and fetch's
  // pool must see the old connections closed before the same ports answer again.
  clearStore();
  await new Promise((wait) => setTimeout(wait, 50));
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'local-shop-restart-'));
  config = mkdtempSync(join(tmpdir(), 'local-shop-restart-config-'));
  mkdirSync(join(root, 'web'));
  writeFileSync(join(root, 'web', 'index.html'), '<!doctype html><title>shop</title>');
  const [port, dynamoPort, sesPort, simulatorPort, identityProviderPort] = await Promise.all(
    Array.from({ length: 5 }, freePort),
  );
  ports = {
    port: port ?? 0,
    dynamoPort: dynamoPort ?? 0,
    sesPort: sesPort ?? 0,
    simulatorPort: simulatorPort ?? 0,
    identityProviderPort: identityProviderPort ?? 0,
  };
});

afterAll(async () => {
  await shop?.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(config, { recursive: true, force: true });
});

/** `npm run orders -- <args> --local` in this process, with no terminal unless `paste` answers. */
async function orders(args: string[], paste?: (address: string) => Promise<string>) {
  const out: string[] = [];
  const err: string[] = [];
  let address = '';
  const code = await runCli([...args, '--local'], {
    out: (line) => {
      out.push(line);
      address = /in your browser: (\S+)$/.exec(line)?.[1] ?? address;
    },
    err: (line) => err.push(line),
    env: {
      ORDERS_LOCAL_URL: `http://localhost:${ports.port}`,
      XDG_CONFIG_HOME: config,
      ORDERS_NO_BROWSER: '1',
    },
    now: () => new Date(),
    cwd: root,
    isTerminal: paste !== undefined,
    ask: async () => (paste === undefined ? '' : paste(address)),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The merchant's browser on another machine: signs in at the address, ends on the redirect. */
async function browserSignsIn(address: string): Promise<string> {
  const form = await (await fetch(address)).text();
  const request = /name="request" value="([^"]+)"/.exec(form)?.[1] ?? '';
  const answer = await fetch(new URL('/login', address), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      request,
      email: 'merchant@live-aquatics.test',
      password: 'Daphnia-Local-2026',
    }).toString(),
    redirect: 'manual',
  });
  return answer.headers.get('location') ?? '';
}

const inboxSchema = z.object({
  emails: z.array(z.object({ messageId: z.string(), destination: z.object({ to: z.array(z.string()) }) })),
});
async function inbox(running: LocalShop) {
  return inboxSchema.parse(await (await fetch(`${running.sesUrl}/store`)).json()).emails;
}

const signInFile = () => join(config, 'live-aquatics-orders', 'local.json');

describe('npm start stopped and started again on the same .local-data', () => {
  it("refunds yesterday's order from the CLI, signed in as before; the inbox still lists the earlier email", async () => {
    // Prepare: a customer pays through the shop and the simulator; the merchant signs the CLI in.
    const before = await startShop();
    const checkout = await fetch(`${before.url}/functions/v1/create-checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'restart-test-0001' },
      body: JSON.stringify({
        name: 'Zoë Brontë',
        email: 'zoe@example.com',
        phone: '07700 900123',
        address: '1 Pond Lane\nBristol',
        postcode: 'BS1 4DJ',
        quantity: 3,
        subtotal: 9.75,
        shipping: 4.95,
        total: 14.7,
      }),
    });
    const { sessionId } = z.object({ sessionId: z.string() }).parse(await checkout.json());
    await before.simulator?.completeSession(sessionId);
    const reference = sessionId.slice(-12);
    await expect.poll(async () => (await inbox(before)).length, { timeout: 20_000 }).toBeGreaterThan(0);
    const sentBefore = await inbox(before);
    const signedIn = await orders(['login'], browserSignsIn);
    expect(signedIn.code).toBe(0);
    const kept = signInSchema.parse(JSON.parse(readFileSync(signInFile(), 'utf8')));
    await stopShop();

    // Act: the same shop again; the ID token minted before the stop, then its refresh token.
    const after = await startShop();
    const found = await orders(['find', reference]);
    writeFileSync(signInFile(), JSON.stringify({ ...kept, tokens: { ...kept.tokens, expiresAt: 0 } }));
    const refunded = await orders(['refund', reference, '--reason', 'supply', '--yes']);

    // Assess
    expect(found.code).toBe(0);
    expect(found.out).toContain(reference);
    expect(refunded.code).toBe(0);
    expect(after.simulator?.refunds.map((refund) => refund.amount)).toEqual([1470]);
    const renewed = signInSchema.parse(JSON.parse(readFileSync(signInFile(), 'utf8')));
    expect(renewed.tokens.idToken).not.toBe(kept.tokens.idToken);
    const listed = (await inbox(after)).map((email) => email.messageId);
    expect(listed).toEqual(expect.arrayContaining(sentBefore.map((email) => email.messageId)));
    expect(sentBefore.some((email) => email.destination.to.includes('zoe@example.com'))).toBe(true);
  }, 180_000);
});
