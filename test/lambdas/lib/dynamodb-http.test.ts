import { createServer, type IncomingMessage, type Server } from 'node:http';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, signingCredentials } from '../../../lambdas/lib/config';
import {
  createDynamoDbHttp,
  createItemReader,
  DynamoDbRequestError,
  plainAttributes,
  toAttributeValue,
} from '../../../lambdas/lib/dynamodb-http';
import { type StandIns, startStandIns } from '../../support/stand-ins';

// The settings read without the SDK, against dynalite (DynamoDB's JSON protocol) and, for what
// dynalite does not check (the signature, a hung or dropped connection, connection reuse), a local
// server that records requests.

let standIns: StandIns;
beforeAll(async () => {
  standIns = await startStandIns();
});
afterAll(() => standIns?.close());

const LOCAL = { accessKeyId: 'local', secretAccessKey: 'local' };

function reader(endpoint = standIns.dynamoEndpoint, timeoutMs?: number) {
  return createItemReader({ region: 'eu-west-2', endpoint, credentials: LOCAL, timeoutMs });
}

/** A server on a free port that answers each request with `answer` and keeps what it got. */
async function recordingServer(
  answer: (request: IncomingMessage, body: string) => [number, string] | 'hang',
) {
  const received: Array<{ headers: IncomingMessage['headers']; body: string }> = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      const result = answer(request, body);
      if (result === 'hang') return;
      response.writeHead(result[0], { 'content-type': 'application/x-amz-json-1.0' }).end(result[1]);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('not on a TCP port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    server,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('createItemReader: GetItem over HTTP, without the SDK', () => {
  it('reads an item the SDK wrote, as DynamoDB JSON', async () => {
    await standIns.inspector.send(
      new PutCommand({
        TableName: standIns.tableName,
        Item: { pk: 'SETTINGS#http-read', mode: 'paused', message: 'Back on 5 January', count: 3 },
      }),
    );

    const item = await reader()(standIns.tableName, { pk: 'SETTINGS#http-read' });

    expect(item).toEqual({
      pk: { S: 'SETTINGS#http-read' },
      mode: { S: 'paused' },
      message: { S: 'Back on 5 January' },
      count: { N: '3' },
    });
  });

  it('answers undefined for a key with no item', async () => {
    expect(await reader()(standIns.tableName, { pk: 'SETTINGS#never-written' })).toBeUndefined();
  });

  it("a table that does not exist: DynamoDbRequestError with DynamoDB's type and status", async () => {
    const error = await reader()('no-such-table', { pk: 'SETTINGS#shop' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(DynamoDbRequestError);
    expect(error).toMatchObject({
      name: 'DynamoDbRequestError',
      type: 'ResourceNotFoundException',
      statusCode: 400,
    });
    expect((error as Error).message).toMatch(/^DynamoDB GetItem failed: ResourceNotFoundException: /);
  });

  it('signs with SigV4 for dynamodb in the region, with the session token, and sends GetItem JSON', async () => {
    const server = await recordingServer(() => [200, '{}']);
    try {
      const getItem = createItemReader({
        region: 'eu-west-2',
        endpoint: server.url,
        credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', sessionToken: 'token-1' },
      });

      await getItem('orders', { pk: 'SETTINGS#shop' }, { consistentRead: true });

      const [request] = server.received;
      expect(request?.headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-2\/dynamodb\/aws4_request, SignedHeaders=[a-z0-9;-]*x-amz-target[a-z0-9;-]*, Signature=[0-9a-f]{64}$/,
      );
      expect(request?.headers['x-amz-security-token']).toBe('token-1');
      expect(request?.headers['x-amz-target']).toBe('DynamoDB_20120810.GetItem');
      expect(request?.headers['content-type']).toBe('application/x-amz-json-1.0');
      expect(JSON.parse(request?.body ?? '')).toEqual({
        TableName: 'orders',
        Key: { pk: { S: 'SETTINGS#shop' } },
        ConsistentRead: true,
      });
    } finally {
      await server.close();
    }
  });

  it('retries a 500 twice, then throws with the error type', async () => {
    const server = await recordingServer(() => [
      500,
      '{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"boom"}',
    ]);
    try {
      const error = await reader(server.url)('orders', { pk: 'SETTINGS#shop' }).catch((e: unknown) => e);

      expect(server.received).toHaveLength(3);
      expect(error).toMatchObject({ type: 'InternalServerError', statusCode: 500 });
      expect((error as Error).message).toBe('DynamoDB GetItem failed: InternalServerError: boom');
    } finally {
      await server.close();
    }
  });

  it('a connection dropped before any answer (a kept-alive socket the server closed) is tried again', async () => {
    let dropped = 0;
    const server = await recordingServer((request) => {
      if (dropped === 0) {
        dropped += 1;
        request.socket.destroy();
        return 'hang';
      }
      return [200, '{"Item":{"mode":{"S":"open"}}}'];
    });
    try {
      expect(await reader(server.url)('orders', { pk: 'SETTINGS#shop' })).toEqual({ mode: { S: 'open' } });
      expect(server.received).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('calls in a row share one kept-alive connection', async () => {
    const server = await recordingServer(() => [200, '{}']);
    let connections = 0;
    server.server.on('connection', () => {
      connections += 1;
    });
    try {
      const getItem = reader(server.url);
      for (const pk of ['SETTINGS#a', 'SETTINGS#b', 'SETTINGS#c']) await getItem('orders', { pk });

      expect(server.received).toHaveLength(3);
      expect(connections).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('an answer that is not JSON, or an Item that is not a map, is an error, never an empty shop', async () => {
    const server = await recordingServer((_request, body) =>
      body.includes('not-json') ? [200, '<html>'] : [200, '{"Item":"open"}'],
    );
    try {
      await expect(reader(server.url)('orders', { pk: 'not-json' })).rejects.toMatchObject({
        type: 'MalformedResponse',
        message: 'GetItem answered without JSON',
      });
      await expect(reader(server.url)('orders', { pk: 'string-item' })).rejects.toMatchObject({
        type: 'MalformedResponse',
        message: 'GetItem answered an Item that is not a map',
      });
    } finally {
      await server.close();
    }
  });

  it('a connection that never answers fails after the attempt timeout', async () => {
    const server = await recordingServer(() => 'hang');
    try {
      const error = await reader(server.url, 200)('orders', { pk: 'SETTINGS#shop' }).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(Error);
      expect((error as Error).name).toBe('TimeoutError');
    } finally {
      await server.close();
    }
  });
});

describe('updateItem: one conditional UpdateItem over HTTP, without the SDK', () => {
  const calls = () =>
    createDynamoDbHttp({ region: 'eu-west-2', endpoint: standIns.dynamoEndpoint, credentials: LOCAL });
  const add = (hold: string) => ({
    updateExpression: 'ADD #taken :n, #holds :holds',
    conditionExpression: 'NOT contains(#holds, :hold)',
    names: { '#taken': 'taken', '#holds': 'holds' },
    values: {
      ':n': toAttributeValue(3),
      ':holds': toAttributeValue(new Set([hold])),
      ':hold': toAttributeValue(hold),
    },
  });

  it('applies the update and answers the whole item as it left it, as DynamoDB JSON', async () => {
    const { updateItem } = calls();

    const attributes = await updateItem(
      standIns.tableName,
      { pk: 'CAPACITY#http-update' },
      {
        ...add('a:3'),
        returnValues: 'ALL_NEW',
      },
    );

    expect(attributes).toEqual({
      pk: { S: 'CAPACITY#http-update' },
      taken: { N: '3' },
      holds: { SS: ['a:3'] },
    });
  });

  it('a condition that does not hold: DynamoDbRequestError ConditionalCheckFailedException, nothing changed', async () => {
    const { updateItem, getItem } = calls();
    await updateItem(standIns.tableName, { pk: 'CAPACITY#http-condition' }, add('a:3'));

    const error = await updateItem(standIns.tableName, { pk: 'CAPACITY#http-condition' }, add('a:3')).catch(
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(DynamoDbRequestError);
    expect(error).toMatchObject({ type: 'ConditionalCheckFailedException', statusCode: 400 });
    expect((error as Error).message).toMatch(
      /^DynamoDB UpdateItem failed: ConditionalCheckFailedException: /,
    );
    expect(await getItem(standIns.tableName, { pk: 'CAPACITY#http-condition' })).toMatchObject({
      taken: { N: '3' },
    });
  });

  it('without returnValues answers an empty map, and sends UpdateItem JSON with NONE', async () => {
    const server = await recordingServer(() => [200, '{}']);
    try {
      const { updateItem } = createDynamoDbHttp({
        region: 'eu-west-2',
        endpoint: server.url,
        credentials: LOCAL,
      });

      expect(await updateItem('orders', { pk: 'CAPACITY#2026-12-07' }, add('a:3'))).toEqual({});
      const [request] = server.received;
      expect(request?.headers['x-amz-target']).toBe('DynamoDB_20120810.UpdateItem');
      expect(JSON.parse(request?.body ?? '')).toEqual({
        TableName: 'orders',
        Key: { pk: { S: 'CAPACITY#2026-12-07' } },
        UpdateExpression: 'ADD #taken :n, #holds :holds',
        ConditionExpression: 'NOT contains(#holds, :hold)',
        ExpressionAttributeNames: { '#taken': 'taken', '#holds': 'holds' },
        ExpressionAttributeValues: { ':n': { N: '3' }, ':holds': { SS: ['a:3'] }, ':hold': { S: 'a:3' } },
        ReturnValues: 'NONE',
      });
    } finally {
      await server.close();
    }
  });

  it('Attributes that are not a map are an error', async () => {
    const server = await recordingServer(() => [200, '{"Attributes":["taken"]}']);
    try {
      const { updateItem } = createDynamoDbHttp({
        region: 'eu-west-2',
        endpoint: server.url,
        credentials: LOCAL,
      });

      await expect(updateItem('orders', { pk: 'CAPACITY#x' }, add('a:3'))).rejects.toMatchObject({
        type: 'MalformedResponse',
        message: 'UpdateItem answered Attributes that are not a map',
      });
    } finally {
      await server.close();
    }
  });
});

describe('plainAttributes', () => {
  it('reads the wire values as the document client would, and drops types it does not know', () => {
    expect(
      plainAttributes({
        pk: { S: 'SETTINGS#shop' },
        count: { N: '3' },
        flag: { BOOL: true },
        none: { NULL: true },
        holds: { SS: ['a:3', 'b:6'] },
        list: { L: [{ S: 'x' }, { N: '2' }, { B: 'AAE=' }] },
        days: { M: { '2026-12-07': { N: '12' }, '2026-12-14': { NULL: true } } },
        binary: { B: 'AAE=' },
      }),
    ).toEqual({
      pk: 'SETTINGS#shop',
      count: 3,
      flag: true,
      none: null,
      holds: new Set(['a:3', 'b:6']),
      list: ['x', 2],
      days: { '2026-12-07': 12, '2026-12-14': null },
    });
  });
});

describe('signingCredentials', () => {
  const ROLE = {
    AWS_ACCESS_KEY_ID: 'ASIAROLE',
    AWS_SECRET_ACCESS_KEY: 'role-secret',
    AWS_SESSION_TOKEN: 'role-token',
  };

  it("signs with the role's credentials and session token when no endpoint is set", () => {
    expect(signingCredentials(ROLE, undefined)).toEqual({
      accessKeyId: 'ASIAROLE',
      secretAccessKey: 'role-secret',
      sessionToken: 'role-token',
    });
  });

  it("signs a stand-in's requests with local credentials, never the role's", () => {
    expect(signingCredentials(ROLE, 'http://127.0.0.1:4567')).toEqual({
      accessKeyId: 'local',
      secretAccessKey: 'local',
    });
  });

  it('without an endpoint and without the runtime credentials: a ConfigError naming them', () => {
    for (const env of [{}, { AWS_ACCESS_KEY_ID: 'ASIAROLE' }, { AWS_SECRET_ACCESS_KEY: 'role-secret' }]) {
      expect(() => signingCredentials(env, undefined)).toThrow(ConfigError);
      expect(() => signingCredentials(env, undefined)).toThrow(
        'Invalid configuration: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: not set (the Lambda runtime sets them from the function role)',
      );
    }
  });
});
