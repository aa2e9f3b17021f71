import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import dynalite from 'dynalite';
import { readBody } from './request-body';

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
type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;
const FAKE_SIGNATURE =
  'AWS4-HMAC-SHA256 Credential=local/20260101/eu-west-2/dynamodb/aws4_request, SignedHeaders=host, Signature=0';

/** dynalite with TransactWriteItems: what `npm start`, the rehearsal and the tests run. */
export function dynaliteWithTransactions(options: Parameters<typeof dynalite>[0] = {}): Server {
  const server = dynalite(options);
  const [inner] = server.listeners('request') as RequestHandler[];
  if (!inner) throw new Error('dynalite has no request handler');
  server.removeAllListeners('request');
  const gate = createGate();
  const call = innerCaller(inner);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const target = String(req.headers['x-amz-target'] ?? '');
    if (target === `${TARGET_PREFIX}TransactWriteItems`) {
      void readBody(req)
        .then((bytes) => bytes.toString('utf8'))
        .then((body) =>
          gate
            .exclusive(() => transact(call, body))
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

async function transact(call: SelfCall, body: string): Promise<{ status: number; payload: unknown }> {
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
  const steps: Step[] = [];
  for (const item of items) {
    const [kind, op] = Object.entries(item)[0] ?? [];
    if (kind === undefined || op === undefined) return validation('An action of TransactItems is empty');
    const key = op.Key ?? pick(op.Item ?? {}, await keyNames(call, op.TableName));
    steps.push({ kind: kind as keyof TransactItem, op, key });
  }
  const ids = steps.map((step) => `${step.op.TableName} ${JSON.stringify(step.key)}`);
  if (new Set(ids).size !== ids.length) {
    return validation('Transaction request cannot include multiple operations on one item');
  }
  const reasons: Array<{ Code: string; Message?: string; Item?: AttributeMap }> = steps.map(() => ({
    Code: 'None',
  }));
  const written: Array<{ step: Step; old: AttributeMap | undefined }> = [];
  let failed = false;
  for (const [index, step] of steps.entries()) {
    const { ReturnValuesOnConditionCheckFailure: returnOld, ...request } = step.op;
    const action = step.kind === 'Put' ? 'PutItem' : step.kind === 'Delete' ? 'DeleteItem' : 'UpdateItem';
    // ALL_OLD: the item as it was, to put back if a later condition fails.
    const answer = await call(action, { ...request, ReturnValues: 'ALL_OLD' });
    const old = (answer.payload as { Attributes?: AttributeMap }).Attributes;
    if (answer.status === 200) {
      written.push({ step, old });
      continue;
    }
    const type = String((answer.payload as { __type?: string }).__type ?? '');
    if (!type.endsWith('ConditionalCheckFailedException')) {
      await restore(call, written);
      return answer;
    }
    failed = true;
    const item =
      returnOld === 'ALL_OLD'
        ? (await call('GetItem', { TableName: step.op.TableName, Key: step.key, ConsistentRead: true }))
            .payload
        : undefined;
    const current = (item as { Item?: AttributeMap } | undefined)?.Item;
    reasons[index] = {
      Code: 'ConditionalCheckFailed',
      Message: 'The conditional request failed',
      ...(current !== undefined && { Item: current }),
    };
  }
  // A condition check changes nothing: its update above only evaluated the condition, and made an
  // item (with only its key) where there was none.
  const undo = written.filter(({ step, old }) => step.kind !== 'ConditionCheck' || old === undefined);
  await restore(call, failed ? undo : undo.filter(({ step }) => step.kind === 'ConditionCheck'));
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

interface Step {
  kind: keyof TransactItem;
  op: Operation;
  key: AttributeMap;
}

/** Puts back the items written, last first, as they were before the transaction. */
async function restore(
  call: SelfCall,
  written: Array<{ step: Step; old: AttributeMap | undefined }>,
): Promise<void> {
  for (const { step, old } of [...written].reverse()) {
    const answer =
      old === undefined
        ? await call('DeleteItem', { TableName: step.op.TableName, Key: step.key })
        : await call('PutItem', { TableName: step.op.TableName, Item: old });
    if (answer.status !== 200) {
      throw new Error(`Could not undo a transaction's write: ${JSON.stringify(answer.payload)}`);
    }
  }
}

type SelfCall = (action: string, request: unknown) => Promise<{ status: number; payload: unknown }>;

/** Calls dynalite's own handler in process, as a request would, without a round trip. */
function innerCaller(inner: RequestHandler): SelfCall {
  return (action, request) =>
    new Promise((resolve, reject) => {
      const req = Object.assign(Readable.from([Buffer.from(JSON.stringify(request))]), {
        method: 'POST',
        url: '/',
        headers: {
          'content-type': 'application/x-amz-json-1.0',
          'x-amz-target': `${TARGET_PREFIX}${action}`,
          'x-amz-date': '20260101T000000Z',
          authorization: FAKE_SIGNATURE,
        },
      });
      const res = {
        statusCode: 200,
        contentType: '',
        setHeader: () => undefined,
        end(text?: string) {
          try {
            resolve({ status: res.statusCode, payload: text ? JSON.parse(text) : {} });
          } catch (error) {
            reject(error);
          }
        },
      };
      inner(req as unknown as IncomingMessage, res as unknown as ServerResponse);
    });
}

const keyCache = new Map<string, string[]>();

async function keyNames(call: SelfCall, table: string): Promise<string[]> {
  const cache = keyCache;
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

function send(res: ServerResponse, status: number, payload: unknown): void {
  const body = JSON.stringify(payload);
  res.writeHead(status, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}
