import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { dynaliteWithTransactions } from './dynalite-transactions';
import { portMessage, startSesLocal } from './ses-local';

/** Listens and resolves with the port; a port in use rejects naming the part, not Node's internals. */
export function listen(server: Server, part: string, port: number, host?: string): Promise<number> {
  return new Promise((done, fail) => {
    server.once('error', (error) =>
      fail(new Error(portMessage(part, { port, host: host ?? 'all interfaces' }, error), { cause: error })),
    );
    server.listen(port, host, () => done((server.address() as AddressInfo).port));
  });
}

/** Closes at once: open keep-alive connections would otherwise hold a stop for seconds. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((done) => {
    server.closeAllConnections();
    server.close(() => done());
  });
}

/** The files the stand-ins keep their state in, inside `keepDir` (docs/decisions/0046). */
export const KEPT_FILES = {
  stripeSimulator: 'stripe-simulator.json',
  sesInbox: 'ses-inbox.json',
  identityProvider: 'identity-provider.json',
  vapidKeys: 'vapid-keys.json',
} as const;

/**
 * The storage stand-ins `npm start` and the rehearsal share: dynalite (on disk when `dataDir` is
 * given) and the SES stand-in (its inbox kept in `keepDir` when given), on the loopback only; each
 * one's closer is pushed as it starts.
 */
export async function startStoreStandIns(
  options: {
    dynamoPort: number;
    sesPort: number;
    dataDir?: string | undefined;
    keepDir?: string | undefined;
    log?: (line: string) => void;
  },
  closers: Array<() => Promise<void>>,
): Promise<{ dynamoUrl: string; sesUrl: string }> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const dynamo = dynaliteWithTransactions({
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
    ...(options.dataDir && { path: options.dataDir }),
  });
  const dynamoPort = await listen(dynamo, 'DynamoDB stand-in (dynalite)', options.dynamoPort, '127.0.0.1');
  closers.push(() => closeServer(dynamo));
  const ses = await startSesLocal({
    port: options.sesPort,
    host: '127.0.0.1',
    inboxFile: options.keepDir && join(options.keepDir, KEPT_FILES.sesInbox),
    log: options.log,
  });
  closers.push(() => closeServer(ses));
  return {
    dynamoUrl: `http://127.0.0.1:${dynamoPort}`,
    sesUrl: `http://127.0.0.1:${(ses.address() as AddressInfo).port}`,
  };
}
