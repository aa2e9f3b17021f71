import { createPublicKey, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { z } from 'zod';
import { generateVapidKeys, type VapidKeys } from '../lambdas/lib/web-push';
import { keptFile } from './kept-file';
import { readBody } from './request-body';
import { closeServer, KEPT_FILES, listen } from './stand-in-servers';

// A stand-in for a browser's push service (RFC 8030), so the merchant's notifications run locally
// and in tests with no network (headless Chromium cannot subscribe to a real one here). It checks a
// push as a push service does (RFC 8292's VAPID Authorization, RFC 8188's aes128gcm body, a TTL)
// and records it; it cannot read it, as no push service can: the test holds the keys.
//
//   POST /push/<id>                   a push to subscription <id>: 201, or 410 once <id> is gone
//   GET  /pushes[?subscription=<id>]  every push recorded, oldest first (body base64url)
//   POST /subscriptions/<id>/gone     <id> answers 410 from now on (the device unsubscribed)
//   POST /clear                       forgets the pushes and the gone subscriptions

/** One push as recorded: what the service received, still encrypted. */
export interface RecordedPush {
  subscription: string;
  receivedAt: string;
  ttl: number;
  urgency: string | undefined;
  /** The VAPID public key (`k=`) the push was signed with. */
  vapidKey: string;
  /** The aes128gcm body, base64url. */
  body: string;
}

export interface PushStandIn {
  url: string;
  server: Server;
  pushes: RecordedPush[];
  close(): Promise<void>;
}

/** The biggest body a push service must accept (RFC 8030 §7.2: 4096 octets). */
const MAX_BODY = 4096;
/** VAPID's JWT may not last longer than this (RFC 8292 §2). */
const MAX_JWT_SECONDS = 24 * 3_600;

/**
 * Why a push's `Authorization: vapid t=<jwt>, k=<key>` is not valid for `audience` (RFC 8292 §2-3):
 * an ES256 JWT signed by `k`, for this origin, unexpired, at most a day long, with a contact `sub`.
 */
export function vapidProblem(
  authorization: string | undefined,
  audience: string,
  now: Date,
): string | undefined {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+),\s*k=([\w-]+)$/.exec(authorization ?? '');
  if (match === null) return 'Authorization is not "vapid t=<jwt>, k=<key>"';
  const [jwt = '', k = ''] = match.slice(1);
  const [header = '', claims = '', signature = ''] = jwt.split('.');
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4) return 'k is not an uncompressed P-256 point';
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) return 'the JWT is not signed by k';
  const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: string };
  if (head.alg !== 'ES256') return 'the JWT is not ES256';
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as {
    aud?: string;
    exp?: number;
    sub?: string;
  };
  const seconds = now.getTime() / 1000;
  if (body.aud !== audience) return `aud is not ${audience}`;
  if (typeof body.exp !== 'number' || body.exp <= seconds) return 'the JWT has expired';
  if (body.exp > seconds + MAX_JWT_SECONDS) return 'the JWT lasts more than 24 hours';
  if (typeof body.sub !== 'string' || !/^(mailto:|https:)/.test(body.sub)) return 'sub is no contact';
  return undefined;
}

const send = (res: ServerResponse, status: number, body?: unknown) => {
  if (body === undefined) res.writeHead(status).end();
  else res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

/** Starts the stand-in on `port` (0: any free port), on the loopback. */
export async function startPushStandIn(
  port: number,
  now: () => Date = () => new Date(),
): Promise<PushStandIn> {
  const pushes: RecordedPush[] = [];
  const gone = new Set<string>();
  let origin = '';

  const acceptPush = async (req: IncomingMessage, res: ServerResponse, id: string) => {
    const body = await readBody(req);
    if (gone.has(id)) return send(res, 410, { error: 'This subscription has expired or unsubscribed.' });
    const problem = vapidProblem(req.headers.authorization, origin, now());
    if (problem !== undefined) return send(res, 403, { error: problem });
    const ttl = Number(req.headers.ttl);
    if (req.headers.ttl === undefined || !Number.isInteger(ttl) || ttl < 0)
      return send(res, 400, { error: 'TTL header missing' });
    if (req.headers['content-encoding'] !== 'aes128gcm')
      return send(res, 415, { error: 'Content-Encoding must be aes128gcm' });
    if (body.length === 0 || body.length > MAX_BODY)
      return send(res, 413, { error: 'Body of 1 to 4096 bytes' });
    const vapidKey = /k=([\w-]+)/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const urgency = req.headers.urgency;
    pushes.push({
      subscription: id,
      receivedAt: now().toISOString(),
      ttl,
      urgency: typeof urgency === 'string' ? urgency : undefined,
      vapidKey,
      body: body.toString('base64url'),
    });
    res.writeHead(201, { location: `${origin}/messages/${pushes.length}` }).end();
  };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const pushMatch = /^\/push\/([\w-]{1,200})$/.exec(url.pathname);
      const goneMatch = /^\/subscriptions\/([\w-]{1,200})\/gone$/.exec(url.pathname);
      if (req.method === 'POST' && pushMatch?.[1] !== undefined) return acceptPush(req, res, pushMatch[1]);
      if (req.method === 'GET' && url.pathname === '/pushes') {
        const only = url.searchParams.get('subscription');
        return send(res, 200, { pushes: pushes.filter((p) => only === null || p.subscription === only) });
      }
      if (req.method === 'POST' && goneMatch?.[1] !== undefined) {
        gone.add(goneMatch[1]);
        return send(res, 204);
      }
      if (req.method === 'POST' && url.pathname === '/clear') {
        pushes.length = 0;
        gone.clear();
        return send(res, 204);
      }
      send(res, 404, { error: 'Not a push-service route (see local/push-stand-in.ts).' });
    })().catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { error: String(error) });
    });
  });
  const bound = await listen(server, 'push-service stand-in', port, '127.0.0.1');
  origin = `http://127.0.0.1:${bound}`;
  return { url: origin, server, pushes, close: () => closeServer(server) };
}

/**
 * The local stage's VAPID pair, as setup makes a deployed stage's: kept in `keepDir` between runs
 * (a new pair would silence every device subscribed with the old one), or new each run in memory.
 */
export function localVapidKeys(keepDir: string | undefined, log: (line: string) => void): VapidKeys {
  if (keepDir === undefined) return generateVapidKeys();
  let keys: VapidKeys | undefined;
  const file = keptFile({
    path: join(keepDir, KEPT_FILES.vapidKeys),
    part: 'VAPID key pair',
    schema: z.object({ publicKey: z.string(), privateKey: z.string() }),
    snapshot: () => keys ?? generateVapidKeys(),
    log,
  });
  keys = file.read();
  if (keys === undefined) {
    keys = generateVapidKeys();
    file.touch();
    file.flush();
  }
  return keys;
}
