import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startLocalShop, waitUntilAnswering } from '../../local/local-shop';

function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => done(port));
    });
  });
}

/** Resolves as soon as something accepts TCP connections on the port. */
async function waitForOpenPort(port: number): Promise<void> {
  for (;;) {
    const open = await new Promise<boolean>((done) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        done(true);
      });
      socket.once('error', () => done(false));
    });
    if (open) return;
    await new Promise((wait) => setTimeout(wait, 5));
  }
}

describe('the local shop start-up', () => {
  it('answers a request that arrives as soon as its port opens, before the rest of the stack is up', async () => {
    const webRoot = mkdtempSync(join(tmpdir(), 'local-shop-'));
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>shop</title>');
    const [port, dynamoPort, sesPort, simulatorPort] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    const starting = startLocalShop({
      port,
      dynamoPort,
      sesPort,
      simulatorPort,
      dataDir: undefined,
      webRoot,
      stripe: undefined,
      log: () => undefined,
    });
    await waitForOpenPort(port);
    // Sent in the start-up window: before the fix this request was accepted and never answered.
    const early = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(20_000) });
    const shop = await starting;
    try {
      expect(early.status).toBe(200);
      expect(await early.text()).toContain('<title>shop</title>');
    } finally {
      await shop.close();
    }
  }, 30_000);

  it('says which part could not start when a port is taken, not a null dereference', async () => {
    // Prepare: something already listens on the SES stand-in's port.
    const webRoot = mkdtempSync(join(tmpdir(), 'local-shop-'));
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>shop</title>');
    const squatter = createServer();
    await new Promise<void>((done) => squatter.listen(0, '127.0.0.1', done));
    const taken = (squatter.address() as AddressInfo).port;
    const [port, dynamoPort, simulatorPort] = await Promise.all([freePort(), freePort(), freePort()]);

    try {
      // Act
      const starting = startLocalShop({
        port,
        dynamoPort,
        sesPort: taken,
        simulatorPort,
        dataDir: undefined,
        webRoot,
        stripe: undefined,
        log: () => undefined,
      });

      // Assess
      await expect(starting).rejects.toThrow(`SES stand-in: port ${taken} on 127.0.0.1 is already in use`);
    } finally {
      await new Promise<void>((done) => squatter.close(() => done()));
    }
  });

  it('waits until every part answers, and names the one that does not', async () => {
    // Prepare: one part answers, the other port has nothing behind it.
    const answering = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((done) => answering.listen(0, '127.0.0.1', done));
    const up = `http://127.0.0.1:${(answering.address() as AddressInfo).port}/`;
    const down = `http://127.0.0.1:${await freePort()}/`;

    try {
      // Act
      const allUp = waitUntilAnswering([{ name: 'Shop', url: up }], 2_000);
      const oneDown = waitUntilAnswering(
        [
          { name: 'Shop', url: up },
          { name: 'SES stand-in', url: down },
        ],
        300,
      );

      // Assess
      await expect(allUp).resolves.toBeUndefined();
      await expect(oneDown).rejects.toThrow(`SES stand-in does not answer at ${down}`);
    } finally {
      await new Promise<void>((done) => answering.close(() => done()));
    }
  });
});
