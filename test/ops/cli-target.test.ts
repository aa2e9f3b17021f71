import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../ops/cli';
import { type SignIn, writeSignIn } from '../../ops/sign-in-store';

// The CLI acts on the shop its flag or environment names, never silently on the one it signed in
// to: a refund meant for a shop that is not running once went through on the one that was.

// Sunday 6 December 2026, 17:00 in London: the kept token is good until 18:00.
const NOW = new Date('2026-12-06T17:00:00Z');

function signInAt(siteUrl: string): SignIn {
  return {
    siteUrl,
    config: { signInUrl: 'http://127.0.0.1:9/sign-in', clientId: 'client-1' },
    tokens: {
      idToken: 'id-token',
      accessToken: 'access-token',
      refreshToken: 'refresh-token',
      expiresAt: Date.parse('2026-12-06T18:00:00Z'),
      email: 'merchant@live-aquatics.test',
    },
  };
}

/** A running shop that notes every request it is sent and answers each with a plain 404. */
let running: Server;
let runningUrl: string;
const received: string[] = [];
beforeAll(async () => {
  running = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found."}');
  });
  await new Promise<void>((resolve) => running.listen(0, '127.0.0.1', resolve));
  runningUrl = `http://127.0.0.1:${(running.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => running.close(() => resolve())));

let config: string;
beforeEach(() => {
  config = mkdtempSync(join(tmpdir(), 'cli-target-'));
  received.length = 0;
});
afterEach(() => {
  rmSync(config, { recursive: true, force: true });
  vi.restoreAllMocks();
});

async function orders(args: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    env: { XDG_CONFIG_HOME: config, ...env },
    now: () => NOW,
    cwd: config,
    // No terminal: a command that asks first acts only with --yes.
    isTerminal: false,
    ask: async () => '',
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('the CLI acts on the shop its flag or environment names', () => {
  it('signed in to localhost:3000, ORDERS_LOCAL_URL names localhost:3999: refused, exit 1, nothing sent anywhere', async () => {
    // Prepare
    writeSignIn({ XDG_CONFIG_HOME: config }, 'local', signInAt('http://localhost:3000'));
    const fetched = vi.spyOn(globalThis, 'fetch');

    // Act
    const refund = await orders(['refund', 'cliTarget001', '--reason', 'doa', '--yes', '--local'], {
      ORDERS_LOCAL_URL: 'http://localhost:3999',
    });

    // Assess
    expect(refund.code).toBe(1);
    expect(refund.err).toBe(
      'Refused: signed in to http://localhost:3000 but ORDERS_LOCAL_URL names http://localhost:3999: run login for it',
    );
    expect(refund.out).toBe('');
    expect(fetched).not.toHaveBeenCalled();
  });

  it('signed in to the running shop, ORDERS_LOCAL_URL names one not running: the running shop is sent nothing', async () => {
    // Prepare
    writeSignIn({ XDG_CONFIG_HOME: config }, 'local', signInAt(runningUrl));

    // Act
    const refund = await orders(['refund', 'cliTarget001', '--reason', 'doa', '--yes'], {
      ORDERS_STAGE: 'local',
      ORDERS_LOCAL_URL: 'http://127.0.0.1:9',
    });

    // Assess
    expect(refund.code).toBe(1);
    expect(refund.err).toBe(
      `Refused: signed in to ${runningUrl} but ORDERS_LOCAL_URL names http://127.0.0.1:9: run login for it`,
    );
    expect(received).toEqual([]);
  });

  it('without ORDERS_LOCAL_URL a sign-in made on another local address is refused too', async () => {
    // Prepare
    writeSignIn({ XDG_CONFIG_HOME: config }, 'local', signInAt('http://localhost:3999'));

    // Act
    const status = await orders(['status', '--local'], {});

    // Assess
    expect(status.code).toBe(1);
    expect(status.err).toBe(
      'Refused: signed in to http://localhost:3999 but the local target names http://localhost:3000: run login for it',
    );
  });

  it('the shop named and signed in to (a trailing slash aside) is the one the command reaches', async () => {
    // Prepare
    writeSignIn({ XDG_CONFIG_HOME: config }, 'local', signInAt(runningUrl));

    // Act
    const status = await orders(['status', '--local'], { ORDERS_LOCAL_URL: `${runningUrl}/` });

    // Assess
    expect(received).toContain('GET /functions/v1/admin/status');
    expect(status.err).not.toContain('signed in to');
  });

  it('a stage signed in at one address while ORDERS_SITE_URL names another: refused', async () => {
    // Prepare
    writeSignIn({ XDG_CONFIG_HOME: config }, 'stage-prod', signInAt('https://shop.example'));
    const fetched = vi.spyOn(globalThis, 'fetch');

    // Act
    const status = await orders(['status', '--stage', 'prod'], {
      ORDERS_SITE_URL: 'https://other-shop.example',
    });

    // Assess
    expect(status.code).toBe(1);
    expect(status.err).toBe(
      'Refused: signed in to https://shop.example but ORDERS_SITE_URL names https://other-shop.example: run login for it',
    );
    expect(fetched).not.toHaveBeenCalled();
  });
});
