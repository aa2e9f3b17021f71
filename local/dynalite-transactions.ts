import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import dynalite from 'dynalite';

// dynalite 4 has no TransactWriteItems. The checkout reserves its bottles and counts the client's
// hold in one (ADR 0052), so the stand-in answers it here, in front of dynalite: the transaction
// runs alone (other requests wait), each write is dynalite's own conditional write, and a failed
// condition puts back every item already written. Nothing else sees the items in between, so to
// every other request it is all or nothing, as DynamoDB's.

type AttributeMap = Record<string, unknown>;
interface Operation {
  TableName: string;
  Key?: AttributeMap;
  Item?: AttributeMap;
  ReturnValuesOnConditionCheckFailure?: string;
  [field: string]: unknown;
}
type TransactItem = Partial<Record<'Put' | 'Update' | 'Delete' | 'ConditionCheck', Operation>>;

const TARGET_PREFIX = 'DynamoDB_20120810.';
/** Marks the stand-in's own requests, which go through while a transaction holds the others back. */
const INSIDE_HEADER = 'x-local-transaction';
const FAKE_SIGNATURE =
  'AWS4-HMAC-SHA256 Credential=local/20260101/eu-west-2/dynamodb/aws4_request, SignedHeaders=host, Signature=0';

/** dynalite with TransactWriteItems: what `npm start`, the rehearsal and the tests run. */
export function dynaliteWithTransactions(options: Parameters<typeof dynalite>[0] = {}): Server {
  const server = dynalite(options);
  const [inner] = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  if (!inner) throw new Error('dynalite has no request handler');
  server.removeAllListeners('request');
  const gate = createGate();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const target = String(req.headers['x-amz-target'] ?? '');
    if (req.headers[INSIDE_HEADER] !== undefined) return inner(req, res);
    if (target === `${TARGET_PREFIX}TransactWriteItems`) {
      void readBody(req).then((body) =>
        gate
          .exclusive(() => transact(server, body))
          .then(
            ({ status, payload }) => send(res, status, payload),
            (error: unknown) => send(res, 500, { __type: 'InternalServerError', message: String(error) }),
          ),
      );
      return;
    }
    gate.shared((done) => {
      res.on('close', done);
      inner(req, res);
    });
  });
  return server;
}

/** A readers-writer gate: ordinary requests run together, a transaction runs alone. */
function createGate() {
  let running = 0;
  let exclusiveTail: Promise<void> = Promise.resolve();
  let inTransaction = false;
  const waiting: Array<() => void> = [];
  const drained: Array<() => void> = [];
  const finishOne = () => {
    running -= 1;
    if (running === 0) for (const wake of drained.splice(0)) wake();
  };
  return {
    shared(run: (done: () => void) => void) {
      const start = () => {
        running += 1;
        let finished = false;
        run(() => {
          if (!finished) finishOne();
          finished = true;
        });
      };
      if (inTransaction) waiting.push(start);
      else start();
    },
    exclusive<T>(run: () => Promise<T>): Promise<T> {
      const result = exclusiveTail.then(async () => {
        inTransaction = true;
        if (running > 0) await new Promise<void>((resolve) => drained.push(resolve));
        try {
          return await run();
        } finally {
          inTransaction = false;
          for (const start of waiting.splice(0)) start();
        }
      });
      exclusiveTail = result.then(
        () => undefined,
        () => undefined,
      );
      return result;
    },
  };
}

async function transact(server: Server, body: string): Promise<{ status: number; payload: unknown }> {
  const call = selfCaller(server);
  const parsed: unknown = JSON.parse(body);
  const items: TransactItem[] =
    typeof parsed === 'object' &&
    parsed !== null &&
    'TransactItems' in parsed &&
    Array.isArray(parsed.TransactItems)
      ? parsed.TransactItems
      : [];
  if (items.length === 0 || items.length > 100) {
    return validation('TransactItems must hold 1 to 100 actions');
  }
  const keys = new Map<string, string[]>();
  const steps: Array<{ kind: keyof TransactItem; op: Operation; key: AttributeMap }> = [];
  for (const item of items) {
    const [kind, op] = Object.entries(item)[0] ?? [];
    if (kind === undefined || op === undefined) return validation('An action of TransactItems is empty');
    const key = op.Key ?? pick(op.Item ?? {}, await keyNames(call, keys, op.TableName));
    steps.push({ kind: kind as keyof TransactItem, op, key });
  }
  const ids = steps.map((step) => `${step.op.TableName} ${JSON.stringify(step.key)}`);
  if (new Set(ids).size !== ids.length) {
    return validation('Transaction request cannot include multiple operations on one item');
  }
  const before = await Promise.all(
    steps.map(async ({ op, key }) => {
      const got = await call('GetItem', { TableName: op.TableName, Key: key, ConsistentRead: true });
      return (got.payload as { Item?: AttributeMap }).Item;
    }),
  );
  const reasons: Array<{ Code: string; Message?: string; Item?: AttributeMap }> = steps.map(() => ({
    Code: 'None',
  }));
  let failed = false;
  const written: number[] = [];
  for (const [index, { kind, op }] of steps.entries()) {
    const { ReturnValuesOnConditionCheckFailure: returnOld, ...request } = op;
    const action = kind === 'Put' ? 'PutItem' : kind === 'Delete' ? 'DeleteItem' : 'UpdateItem';
    const answer = await call(action, request);
    if (answer.status === 200) {
      written.push(index);
      continue;
    }
    const type = String((answer.payload as { __type?: string }).__type ?? '');
    if (!type.endsWith('ConditionalCheckFailedException')) {
      await restore(call, steps, before, written);
      return { status: answer.status, payload: answer.payload };
    }
    failed = true;
    const old = before[index];
    reasons[index] = {
      Code: 'ConditionalCheckFailed',
      Message: 'The conditional request failed',
      ...(returnOld === 'ALL_OLD' && old !== undefined && { Item: old }),
    };
  }
  // A condition check changes nothing; its update above only evaluated the condition.
  const checks = steps.flatMap((step, index) => (step.kind === 'ConditionCheck' ? [index] : []));
  await restore(call, steps, before, failed ? written : written.filter((index) => checks.includes(index)));
  if (!failed) return { status: 200, payload: {} };
  return {
    status: 400,
    payload: {
      __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
      message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((reason) => reason.Code).join(', ')}]`,
      CancellationReasons: reasons,
    },
  };
}

/** Puts back the items written at `indexes` as they were before the transaction. */
async function restore(
  call: SelfCall,
  steps: Array<{ op: Operation; key: AttributeMap }>,
  before: Array<AttributeMap | undefined>,
  indexes: number[],
): Promise<void> {
  for (const index of indexes.reverse()) {
    const step = steps[index];
    if (step === undefined) continue;
    const old = before[index];
    const answer =
      old === undefined
        ? await call('DeleteItem', { TableName: step.op.TableName, Key: step.key })
        : await call('PutItem', { TableName: step.op.TableName, Item: old });
    if (answer.status !== 200)
      throw new Error(`Could not undo a transaction's write: ${JSON.stringify(answer.payload)}`);
  }
}

type SelfCall = (action: string, request: unknown) => Promise<{ status: number; payload: unknown }>;

function selfCaller(server: Server): SelfCall {
  const { port } = server.address() as AddressInfo;
  return async (action, request) => {
    const response = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `${TARGET_PREFIX}${action}`,
        'x-amz-date': '20260101T000000Z',
        authorization: FAKE_SIGNATURE,
        [INSIDE_HEADER]: '1',
      },
      body: JSON.stringify(request),
    });
    return { status: response.status, payload: await response.json() };
  };
}

async function keyNames(call: SelfCall, cache: Map<string, string[]>, table: string): Promise<string[]> {
  const known = cache.get(table);
  if (known) return known;
  const { payload } = await call('DescribeTable', { TableName: table });
  const schema =
    (payload as { Table?: { KeySchema?: Array<{ AttributeName: string }> } }).Table?.KeySchema ?? [];
  const names = schema.map((key) => key.AttributeName);
  cache.set(table, names);
  return names;
}

function pick(item: AttributeMap, names: string[]): AttributeMap {
  return Object.fromEntries(names.flatMap((name) => (name in item ? [[name, item[name]]] : [])));
}

function validation(message: string): { status: number; payload: unknown } {
  return { status: 400, payload: { __type: 'com.amazon.coral.validate#ValidationException', message } };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, payload: unknown): void {
  const body = JSON.stringify(payload);
  res.writeHead(status, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}
