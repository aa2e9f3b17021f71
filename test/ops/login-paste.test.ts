import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type IdentityProvider, startIdentityProvider } from '../../local/identity-provider';
import { runCli } from '../../ops/cli';
import { signInSchema } from '../../ops/sign-in-store';

// `orders login` on a server reached over SSH: the browser is on another machine, so its redirect
// to localhost:47815 never reaches the CLI. The merchant pastes the address the browser ended on;
// the CLI checks it as its loopback would. The test plays the browser and the terminal.

const CALLBACKS = [47815, 47816, 47817].map((port) => `http://localhost:${port}/callback`);
let idp: IdentityProvider;
let site: Server;
let siteUrl = '';
let config = '';

beforeAll(async () => {
  idp = await startIdentityProvider({
    port: 0,
    clientId: 'local-admin-page',
    redirectUris: CALLBACKS,
    users: [{ email: 'merchant@live-aquatics.test', password: 'Daphnia-Local-2026', groups: ['merchants'] }],
  });
  // The shop's /admin-config.json, all login reads of the site.
  site = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ signInUrl: idp.url, clientId: 'local-admin-page' }));
  });
  await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await idp?.close();
  await new Promise<void>((done) => (site ? site.close(() => done()) : done()));
});

beforeEach(() => {
  if (config !== '') rmSync(config, { recursive: true, force: true });
  config = mkdtempSync(join(tmpdir(), 'orders-login-paste-'));
});

/** The browser on the merchant's own machine: opens the address, signs in, and ends on the redirect. */
async function browserSignsIn(address: string): Promise<string> {
  const form = await (await fetch(address)).text();
  const request = /name="request" value="([^"]+)"/.exec(form)?.[1] ?? '';
  const answer = await fetch(new URL('/login', idp.url), {
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

interface Terminal {
  /** Answers the nth question, given the sign-in address the CLI printed; undefined waits until withdrawn. */
  answer?: (address: string, nth: number) => Promise<string | undefined>;
  isTerminal: boolean;
  /** Run while the CLI waits, once the address is printed (the browser coming back by itself). */
  meanwhile?: (address: string) => Promise<void>;
}

async function login(terminal: Terminal) {
  const out: string[] = [];
  const err: string[] = [];
  const asked: string[] = [];
  let withdrawn = false;
  let printed: (address: string) => void = () => undefined;
  const addressPrinted = new Promise<string>((done) => {
    printed = done;
  });
  const running = runCli(['login', '--local'], {
    out: (line) => {
      out.push(line);
      const address = /in your browser: (\S+)$/.exec(line)?.[1];
      if (address !== undefined) printed(address);
    },
    err: (line) => err.push(line),
    env: { ORDERS_LOCAL_URL: siteUrl, XDG_CONFIG_HOME: config, ORDERS_NO_BROWSER: '1' },
    now: () => new Date(),
    cwd: config,
    isTerminal: terminal.isTerminal,
    ask: async (question, options) => {
      asked.push(question);
      const line = await terminal.answer?.(await addressPrinted, asked.length);
      if (line !== undefined) return line;
      // Nothing typed: the question stays open until login withdraws it.
      return new Promise<string>((_done, fail) => {
        options?.signal?.addEventListener('abort', () => {
          withdrawn = true;
          fail(new Error('withdrawn'));
        });
      });
    },
  });
  if (terminal.meanwhile !== undefined) await terminal.meanwhile(await addressPrinted);
  const code = await running;
  return { code, out: out.join('\n'), err: err.join('\n'), asked, withdrawn };
}

const keptSignIn = () =>
  signInSchema.parse(JSON.parse(readFileSync(join(config, 'live-aquatics-orders', 'local.json'), 'utf8')));

describe('orders login without a browser on this machine', () => {
  it('takes the address the browser ended on, pasted at the prompt, and keeps the sign-in', async () => {
    // Act: the browser's redirect never reaches the CLI; its address is pasted back.
    const run = await login({ isTerminal: true, answer: (address) => browserSignsIn(address) });

    // Assess
    expect(run.code).toBe(0);
    expect(run.asked).toEqual(['Address the browser ended on (or wait for the browser): ']);
    expect(run.out).toContain(
      'paste back the\naddress the browser ends on (http://localhost:47815/callback?code=…, even if the page does not load), or forward the port first: ssh -L 47815:localhost:47815 <this machine>.',
    );
    expect(run.out).toContain(
      `Signed in as merchant@live-aquatics.test to local stack (${siteUrl}) (kept in ${join(config, 'live-aquatics-orders', 'local.json')}).`,
    );
    expect(keptSignIn().tokens.email).toBe('merchant@live-aquatics.test');
    expect(keptSignIn().tokens.refreshToken).toEqual(expect.any(String));
  }, 30_000);

  it("refuses another sign-in's address and a foreign one, says why, and asks again", async () => {
    // Prepare: a redirect of an earlier attempt (its own state), on the right callback.
    const stale = 'http://localhost:47815/callback?code=a-code-of-another-attempt&state=another-state';

    // Act
    const run = await login({
      isTerminal: true,
      answer: async (address, nth) =>
        [stale, `http://localhost:3000/admin?code=x&state=${new URL(address).searchParams.get('state')}`][
          nth - 1
        ] ?? browserSignsIn(address),
    });

    // Assess
    expect(run.code).toBe(0);
    expect(run.asked).toHaveLength(3);
    expect(run.err).toContain(
      "That address belongs to another sign-in (its state is not this one's): paste the one this sign-in ended on.",
    );
    expect(run.err).toContain(
      "That address is not this sign-in's: it starts http://localhost:47815/callback?code=… (the page itself may not load).",
    );
    expect(run.out).toContain('Signed in as merchant@live-aquatics.test');
  }, 30_000);

  it('gives up after three wrong answers, exit 1, and keeps no sign-in; an empty line is asked again', async () => {
    const answers = ['', 'not an address', 'http://localhost:47815/callback?code=x', 'localhost:47815'];

    const run = await login({ isTerminal: true, answer: async (_address, nth) => answers[nth - 1] });

    expect(run.code).toBe(1);
    expect(run.asked).toHaveLength(4);
    expect(run.err).toContain(
      "That is not an address: paste the whole address from the browser's address bar (http://localhost:47815/callback?code=…).",
    );
    expect(run.err).toContain('Refused: no address of this sign-in was pasted in 3 tries. Run login again.');
    expect(() => keptSignIn()).toThrow();
  }, 30_000);

  it("a pasted address with this sign-in's state but a code it was not given fails the PKCE check", async () => {
    // Prepare: a code the identity provider issued to another attempt (another verifier), under
    // this attempt's state: the state check passes, the token endpoint's PKCE check must not.
    const run = await login({
      isTerminal: true,
      answer: async (address) => {
        const other = new URL(address);
        other.searchParams.set('state', 'the-other-attempt');
        other.searchParams.set('code_challenge', 'A'.repeat(43));
        const stolen = new URL(await browserSignsIn(other.toString()));
        stolen.searchParams.set('state', new URL(address).searchParams.get('state') ?? '');
        return stolen.toString();
      },
    });

    expect(run.code).toBe(1);
    expect(run.err).toContain('Refused: Sign-in could not be completed (The token endpoint answered 400).');
  }, 30_000);

  it('a refusal the browser ended on (access_denied) ends login with its reason, exit 1', async () => {
    const run = await login({
      isTerminal: true,
      answer: async (address) =>
        `http://localhost:47815/callback?error=access_denied&error_description=User+cancelled&state=${new URL(address).searchParams.get('state')}`,
    });

    expect(run.code).toBe(1);
    expect(run.err).toContain('Refused: Sign-in did not complete (User cancelled).');
  }, 30_000);

  it('when the browser comes back to the loopback first, the question is withdrawn', async () => {
    const run = await login({
      isTerminal: true,
      meanwhile: async (address) => {
        const back = await fetch(await browserSignsIn(address));
        expect(await back.text()).toContain('Signed in: you can close this tab.');
      },
    });

    expect(run.code).toBe(0);
    expect(run.withdrawn).toBe(true);
    expect(run.out).toContain('Signed in as merchant@live-aquatics.test');
  }, 30_000);

  it('with no terminal, asks nothing and says how to forward the port; the tunnelled redirect signs in', async () => {
    const run = await login({
      isTerminal: false,
      meanwhile: async (address) => {
        await fetch(await browserSignsIn(address));
      },
    });

    expect(run.code).toBe(0);
    expect(run.asked).toEqual([]);
    expect(run.out).toContain(
      'No browser on this machine (over SSH)? Forward the port from your own computer first (ssh -L 47815:localhost:47815 <this machine>),\nthen open the address there: the sign-in comes back through the tunnel.',
    );
    expect(run.out).toContain('Signed in as merchant@live-aquatics.test');
  }, 30_000);
});
