import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as sesLocal from 'aws-ses-v2-local';
import { clearStore, type Email, getStoreReadonly } from 'aws-ses-v2-local/dist/store.js';
import { z } from 'zod';
import { keptFile } from './kept-file';
import { readBody } from './request-body';

/** An email as the package stores it; it wrote each one, so the id and time are what is checked. */
const keptInboxSchema = z.array(
  z.custom<Email>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      'messageId' in value &&
      typeof value.messageId === 'string' &&
      'at' in value &&
      typeof value.at === 'number',
    { message: 'not an email of the inbox' },
  ),
);

/**
 * Starts aws-ses-v2-local, the SES stand-in, behind a small front that refuses what real SES
 * refuses and the package accepts: an address that is not 7-bit ASCII (SES has no SMTPUTF8; an
 * IDN domain must come in punycode). SES v1 answers those with `InvalidParameterValue`, so the
 * code's handling of a permanent refusal is exercised locally. Everything else passes through.
 *
 * Resolves with the front server (its port is the stand-in's port); closing it closes both. A
 * port already in use rejects with a message that names the port, not Node's internals.
 *
 * With `inboxFile` (`npm start`: `.local-data/stand-ins/ses-inbox.json`) the inbox is kept there
 * between runs: loaded at start in place of whatever the package holds, written after each send or
 * clear (docs/decisions/0046). The package keeps one inbox per process, shared by every instance.
 */
export async function startSesLocal(options: {
  port: number;
  host: string;
  inboxFile?: string | undefined;
  log?: (line: string) => void;
}): Promise<Server> {
  const log = options.log ?? (() => undefined);
  const kept =
    options.inboxFile === undefined
      ? undefined
      : keptFile({
          path: options.inboxFile,
          part: 'SES stand-in',
          schema: keptInboxSchema,
          snapshot: () => [...getStoreReadonly().emails],
          log,
        });
  if (kept !== undefined) {
    const emails = kept.read() ?? [];
    clearStore();
    // The package offers no loader; its store object is the one it reads, and it only appends.
    getStoreReadonly().emails.push(...emails);
    if (emails.length > 0) log(`SES stand-in: kept from ${kept.path}: ${emails.length} emails.`);
  }
  const inner = await listenInner(options.host);
  const innerPort = (inner.address() as AddressInfo).port;
  const front = createServer((req, res) => {
    forward(req, res, options.host, innerPort)
      .catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`SES stand-in front: ${error instanceof Error ? error.message : String(error)}`);
      })
      // A send or a clear changes the inbox; a read does not.
      .finally(() => {
        if (req.method !== 'GET') kept?.touch();
      });
  });
  front.on('close', () => {
    kept?.flush();
    inner.closeAllConnections();
    inner.close();
  });
  try {
    await new Promise<void>((resolve, reject) => {
      front.once('error', reject);
      front.listen(options.port, options.host, () => {
        front.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    inner.close();
    throw new Error(portMessage('SES stand-in', options, error), { cause: error });
  }
  return front;
}

/** A listen failure as a person reads it: which part, which address, and what to do. */
export function portMessage(part: string, where: { port: number; host: string }, error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  if (code === 'EADDRINUSE') {
    return `${part}: port ${where.port} on ${where.host} is already in use (another npm start, or another program). Stop it or choose another port.`;
  }
  if (code === 'EACCES') return `${part}: not allowed to listen on port ${where.port} on ${where.host}.`;
  return `${part}: could not listen on ${where.host}:${where.port}: ${error instanceof Error ? error.message : String(error)}`;
}

function loadStart(): typeof sesLocal.default {
  // CommonJS with `__esModule`: vitest hands us its server function as `default`, Node's ESM
  // loader (tsx) wraps it once more as `default.default`.
  const exported: unknown = sesLocal.default;
  return typeof exported === 'function'
    ? sesLocal.default
    : (exported as { default: typeof sesLocal.default }).default;
}

async function listenInner(host: string): Promise<Server> {
  // The package resolves only on success; a listen error would leave its promise pending, which
  // is why the front, not the package, takes the requested port.
  return loadStart()({ port: 0, host });
}

const NOT_SES_ASCII = /[^\x20-\x7e]/;

/** The addresses of a v1 (form) or v2 (JSON) send request, with what SES would say about each. */
function refusalOf(req: IncomingMessage, body: Buffer): string | undefined {
  const addresses: string[] = [];
  const type = req.headers['content-type'] ?? '';
  if (req.method === 'POST' && req.url === '/' && type.includes('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams(body.toString('utf8'));
    if (form.get('Action') !== 'SendEmail' && form.get('Action') !== 'SendRawEmail') return undefined;
    for (const [key, value] of form) {
      if (key === 'Source' || /^(Destination\.\w+Addresses|ReplyToAddresses)\.member\.\d+$/.test(key)) {
        addresses.push(value);
      }
    }
  } else if (req.method === 'POST' && req.url?.startsWith('/v2/email/outbound-email')) {
    const text = body.toString('utf8');
    const json: unknown = text ? JSON.parse(text) : {};
    addresses.push(...stringsUnder(json, /Address(es)?$/));
  } else {
    return undefined;
  }
  for (const address of addresses) {
    const [local = '', domain = ''] = address.split(/@(?=[^@]*$)/);
    if (NOT_SES_ASCII.test(local)) return 'Local address contains control or whitespace';
    if (NOT_SES_ASCII.test(domain)) return 'Domain contains illegal character';
  }
  return undefined;
}

function stringsUnder(value: unknown, key: RegExp): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => stringsUnder(item, key));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([name, inner]) => {
    if (!key.test(name)) return stringsUnder(inner, key);
    if (typeof inner === 'string') return [inner];
    return Array.isArray(inner) ? inner.filter((item): item is string => typeof item === 'string') : [];
  });
}

async function forward(req: IncomingMessage, res: ServerResponse, host: string, port: number) {
  const body = await readBody(req);
  const refusal = refusalOf(req, body);
  if (refusal !== undefined) {
    const v2 = req.url?.startsWith('/v2/') ?? false;
    if (v2) {
      res.writeHead(400, { 'content-type': 'application/json', 'x-amzn-errortype': 'BadRequestException' });
      res.end(JSON.stringify({ message: refusal }));
    } else {
      // SES v1's query-protocol error, as the SDK parses it: the code becomes the error's name.
      res.writeHead(400, { 'content-type': 'text/xml' });
      res.end(
        `<ErrorResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/"><Error><Type>Sender</Type>` +
          `<Code>InvalidParameterValue</Code><Message>${refusal}</Message></Error>` +
          `<RequestId>${randomUUID()}</RequestId></ErrorResponse>`,
      );
    }
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const upstream = request(
      { host, port, method: req.method, path: req.url, headers: req.headers, agent: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('end', resolve);
        answer.on('error', reject);
      },
    );
    upstream.on('error', reject);
    upstream.end(body);
  });
}
