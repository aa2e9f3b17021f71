import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runSimulation } from '@cloud-copilot/iam-simulate';
import { z } from 'zod';
import { readBody } from '../request-body';
import { type Assembly, REHEARSAL_ACCOUNT, resourcesOfType } from './assembly';
import { dynamoChecks, type TableKeys } from './dynamo-calls';

/**
 * The rehearsal's AWS: a gate in front of each stand-in (dynalite, SES, the Secrets Manager
 * extension) that checks every call against the calling function's role in the template, with
 * @cloud-copilot/iam-simulate, before the stand-in answers. A refusal answers as AWS does and
 * prints one line naming AccessDenied, the role, the action and the resource.
 */

export interface AwsGate {
  /** Environment variables pointing each SDK client at its gate (AWS_ENDPOINT_URL_<SERVICE>). */
  endpoints: Readonly<Record<string, string>>;
  extensionPort: number;
  /** The access key id a role's function signs with: how the gate knows which role calls. */
  accessKeyFor(roleId: string): string;
  /** AWS_SESSION_TOKEN of a role's function: how the secrets extension knows which role calls. */
  sessionTokenFor(roleId: string): string;
  close(): Promise<void>;
}

export interface AwsGateOptions {
  assembly: Assembly;
  dynamoUrl: string;
  sesUrl: string;
  /** The template's secrets, by ARN, as the extension answers them. */
  secrets: ReadonlyMap<string, string>;
  /** undefined: the port the template gives the extension (PARAMETERS_SECRETS_EXTENSION_HTTP_PORT). */
  extensionPort: number | undefined;
  log: (line: string) => void;
}

const policyDocumentSchema = z.object({ Statement: z.array(z.record(z.string(), z.unknown())) });

/** The identity policies of each role in the app stack: its inline policies and the AWS::IAM::Policy resources naming it. */
function rolePolicies(assembly: Assembly): Map<string, Array<{ name: string; policy: unknown }>> {
  const app = assembly.app.name;
  const policies = new Map<string, Array<{ name: string; policy: unknown }>>();
  const add = (roleId: string, name: string, document: unknown) => {
    const resolved = assembly.resolve(app, document);
    policyDocumentSchema.parse(resolved);
    policies.set(roleId, [...(policies.get(roleId) ?? []), { name, policy: resolved }]);
  };
  for (const [roleId, role] of resourcesOfType(assembly, 'AWS::IAM::Role')) {
    policies.set(roleId, []);
    const inline = z
      .array(z.object({ PolicyName: z.string(), PolicyDocument: z.unknown() }))
      .optional()
      .parse(role.Properties.Policies);
    for (const policy of inline ?? []) add(roleId, policy.PolicyName, policy.PolicyDocument);
  }
  for (const [policyId, policy] of resourcesOfType(assembly, 'AWS::IAM::Policy')) {
    const roles = z
      .array(z.object({ Ref: z.string() }))
      .default([])
      .parse(policy.Properties.Roles);
    for (const role of roles) add(role.Ref, policyId, policy.Properties.PolicyDocument);
  }
  return policies;
}

interface Call {
  roleId: string;
  action: string;
  /** Any one of these allowing the call allows it (SES: the address's identity or its domain's). */
  resources: readonly string[][];
  context: Record<string, string | string[]>;
}

function forward(req: IncomingMessage, body: Buffer, res: ServerResponse, target: string): Promise<void> {
  const url = new URL(req.url ?? '/', target);
  return new Promise((done, fail) => {
    const upstream = request(
      url,
      {
        method: req.method,
        headers: { ...req.headers, host: url.host, 'content-length': String(body.length) },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('end', () => done());
      },
    );
    upstream.on('error', fail);
    upstream.end(body);
  });
}

/** `Credential=AKID/date/region/service/aws4_request` in a SigV4 Authorization header. */
function signingKeyId(req: IncomingMessage): string | undefined {
  return /Credential=([^/,\s]+)\//.exec(req.headers.authorization ?? '')?.[1];
}

/** Whether a role may make a call: undefined when allowed, else the message AWS would give. */
type Check = (call: Call) => Promise<string | undefined>;

const roleOfKey = (keyId: string | undefined) => (keyId?.startsWith('ROLE.') ? keyId.slice(5) : undefined);

export async function startAwsGate(options: AwsGateOptions): Promise<AwsGate> {
  const { assembly } = options;
  const check = policyChecker(assembly, options.log);
  const dynamo = dynamoGate(check, tableKeys(assembly), assembly.region, options.dynamoUrl);
  const ses = sesGate(check, assembly.region, options.sesUrl);
  const extension = extensionGate(check, options.secrets);
  const templatePort = templateExtensionPort(assembly);
  const dynamoPort = await listenLocal(dynamo, 0);
  const sesPort = await listenLocal(ses, 0);
  const extensionPort = await listenLocal(extension, options.extensionPort ?? templatePort).catch(
    (error: unknown) => {
      throw new Error(
        `Secrets extension stand-in: port ${options.extensionPort ?? templatePort}: ${String(error)}`,
      );
    },
  );
  const servers = [dynamo, ses, extension];
  return {
    endpoints: {
      AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${dynamoPort}`,
      AWS_ENDPOINT_URL_SES: `http://127.0.0.1:${sesPort}`,
      AWS_ENDPOINT_URL_SESV2: `http://127.0.0.1:${sesPort}`,
    },
    extensionPort,
    accessKeyFor: (roleId) => `ROLE.${roleId}`,
    sessionTokenFor: (roleId) => `rehearsal.${roleId}`,
    close: () =>
      Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((done) => {
              server.closeAllConnections();
              server.close(() => done());
            }),
        ),
      ).then(() => undefined),
  };
}

/** Each table's partition key and its indexes' partition keys, by table name. */
function tableKeys(assembly: Assembly): Map<string, TableKeys> {
  const tables = new Map<string, TableKeys>();
  const keySchema = z.array(z.object({ AttributeName: z.string(), KeyType: z.string() }));
  const hashOf = (schema: unknown) =>
    keySchema.parse(schema).find((key) => key.KeyType === 'HASH')?.AttributeName;
  for (const stack of assembly.stacks.values()) {
    for (const [id, resource] of Object.entries(stack.template.Resources)) {
      if (resource.Type !== 'AWS::DynamoDB::Table') continue;
      const partitionKey = hashOf(resource.Properties.KeySchema);
      if (partitionKey === undefined) continue;
      const indexes = new Map<string, string>();
      const gsis = z
        .array(z.looseObject({ IndexName: z.string(), KeySchema: z.unknown() }))
        .default([])
        .parse(resource.Properties.GlobalSecondaryIndexes);
      for (const gsi of gsis) {
        const hash = hashOf(gsi.KeySchema);
        if (hash !== undefined) indexes.set(gsi.IndexName, hash);
      }
      tables.set(assembly.resolveString(stack.name, { Ref: id }), { partitionKey, indexes });
    }
  }
  return tables;
}

/** Checks a call against the role's policies in the template, printing an AccessDenied line on refusal. */
function policyChecker(assembly: Assembly, log: (line: string) => void): Check {
  const policies = rolePolicies(assembly);
  const roleArn = (roleId: string) => `arn:aws:iam::${REHEARSAL_ACCOUNT}:role/${roleId}`;
  // The template's policies do not change while it runs: one simulation per distinct request (3 ms
  // of CPU each), as the admin's week alone makes some 117 DynamoDB calls, on the same days each time.
  const simulations = new Map<string, ReturnType<typeof runSimulation>>();
  const simulate = (
    call: Call,
    resource: string,
    identityPolicies: Array<{ name: string; policy: unknown }>,
  ) => {
    const key = JSON.stringify([call.roleId, call.action, resource, call.context]);
    const known = simulations.get(key);
    if (known !== undefined) return known;
    const result = runSimulation(
      {
        request: {
          principal: roleArn(call.roleId),
          action: call.action,
          resource: { resource, accountId: REHEARSAL_ACCOUNT },
          contextVariables: call.context,
        },
        identityPolicies,
        serviceControlPolicies: [],
        resourceControlPolicies: [],
      },
      {},
    );
    simulations.set(key, result);
    return result;
  };
  /** @returns undefined when allowed, else the line to print and the message AWS would give. */
  async function check(call: Call): Promise<string | undefined> {
    const identityPolicies = policies.get(call.roleId);
    if (!identityPolicies) return `no role ${call.roleId} in the template`;
    for (const alternatives of call.resources) {
      let allowed = false;
      for (const resource of alternatives) {
        const result = await simulate(call, resource, identityPolicies);
        if (result.resultType === 'error') {
          log(
            `iam-simulate could not evaluate ${call.action} on ${resource}: ${JSON.stringify(result.errors)}`,
          );
        } else if (result.overallResult === 'Allowed') {
          allowed = true;
          break;
        }
      }
      if (!allowed) {
        const resource = alternatives[0] ?? '*';
        const keys = call.context['dynamodb:LeadingKeys'];
        log(
          `AccessDenied: role ${call.roleId} may not ${call.action} on ${resource}${keys === undefined ? '' : ` (dynamodb:LeadingKeys ${String(keys)})`}`,
        );
        return `User: arn:aws:sts::${REHEARSAL_ACCOUNT}:assumed-role/${call.roleId}/rehearsal is not authorized to perform: ${call.action} on resource: ${resource} because no identity-based policy allows the ${call.action} action`;
      }
    }
    return undefined;
  }
  return check;
}

// DynamoDB (JSON protocol): the operation from X-Amz-Target; each authorisation it needs
// (a transaction's items, a batch's tables) with its dynamodb:LeadingKeys (dynamo-calls.ts).
function dynamoGate(
  check: Check,
  tables: ReadonlyMap<string, TableKeys>,
  region: string,
  dynamoUrl: string,
): Server {
  return createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const roleId = roleOfKey(signingKeyId(req));
      const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      let refusal: string | undefined;
      // The rehearsal's own set-up calls are signed with no role.
      if (roleId !== undefined) {
        const parsed: unknown = JSON.parse(body.toString('utf8') || '{}');
        for (const call of dynamoChecks(operation, parsed, tables)) {
          const resource = `arn:aws:dynamodb:${region}:${REHEARSAL_ACCOUNT}:table/${call.table}${call.index ? `/index/${call.index}` : ''}`;
          refusal = await check({
            roleId,
            action: call.action,
            resources: [[resource]],
            context: call.leadingKeys === undefined ? {} : { 'dynamodb:LeadingKeys': call.leadingKeys },
          });
          if (refusal !== undefined) break;
        }
      }
      if (refusal !== undefined) {
        res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(
          JSON.stringify({ __type: 'com.amazon.coral.service#AccessDeniedException', Message: refusal }),
        );
        return;
      }
      await forward(req, body, res, dynamoUrl);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify({ __type: 'InternalServerError', Message: String(error) }));
    });
  });
}

// SES: v1 (query protocol, form body) and v2 (REST JSON). SES authorises a send against the
// sender's identity (its address or its domain) and the configuration set.
function sesGate(check: Check, region: string, sesUrl: string): Server {
  return createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const roleId = roleOfKey(signingKeyId(req));
      const isV2 = (req.url ?? '').startsWith('/v2/');
      let action: string | undefined;
      let from: string | undefined;
      let configurationSet: string | undefined;
      if (isV2 && (req.url ?? '').startsWith('/v2/email/outbound-emails')) {
        const input = z
          .object({ FromEmailAddress: z.string().optional(), ConfigurationSetName: z.string().optional() })
          .safeParse(JSON.parse(body.toString('utf8') || '{}'));
        action = 'ses:SendEmail';
        from = input.success ? input.data.FromEmailAddress : undefined;
        configurationSet = input.success ? input.data.ConfigurationSetName : undefined;
      } else if (!isV2) {
        const form = new URLSearchParams(body.toString('utf8'));
        const name = form.get('Action');
        if (name === 'SendEmail' || name === 'SendRawEmail') {
          action = `ses:${name}`;
          from = form.get('Source') ?? undefined;
          configurationSet = form.get('ConfigurationSetName') ?? undefined;
        }
      }
      if (action && roleId !== undefined) {
        const address = /<([^>]+)>/.exec(from ?? '')?.[1] ?? from ?? '';
        const identity = (name: string) => `arn:aws:ses:${region}:${REHEARSAL_ACCOUNT}:identity/${name}`;
        const resources = [[identity(address), identity(address.split('@')[1] ?? address)]];
        if (configurationSet) {
          resources.push([
            `arn:aws:ses:${region}:${REHEARSAL_ACCOUNT}:configuration-set/${configurationSet}`,
          ]);
        }
        const refusal = await check({ roleId, action, resources, context: {} });
        if (refusal !== undefined) {
          res.writeHead(
            403,
            isV2
              ? { 'content-type': 'application/json', 'x-amzn-errortype': 'AccessDeniedException' }
              : { 'content-type': 'text/xml' },
          );
          res.end(
            isV2
              ? JSON.stringify({ message: refusal })
              : `<ErrorResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/"><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>${refusal}</Message></Error><RequestId>rehearsal</RequestId></ErrorResponse>`,
          );
          return;
        }
      }
      await forward(req, body, res, sesUrl);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
}

// The AWS Parameters and Secrets Lambda Extension: the session token says which function asks.
function extensionGate(check: Check, secrets: ReadonlyMap<string, string>): Server {
  return createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const token = String(req.headers['x-aws-parameters-secrets-token'] ?? '');
      const roleId = token.startsWith('rehearsal.') ? token.slice(10) : undefined;
      const secretId = url.searchParams.get('secretId') ?? '';
      if (url.pathname !== '/secretsmanager/get' || roleId === undefined) {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end('missing or wrong X-Aws-Parameters-Secrets-Token');
        return;
      }
      const refusal = await check({
        roleId,
        action: 'secretsmanager:GetSecretValue',
        resources: [[secretId]],
        context: {},
      });
      const value = secrets.get(secretId);
      if (refusal !== undefined || value === undefined) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            refusal !== undefined
              ? { __type: 'AccessDeniedException', Message: refusal }
              : {
                  __type: 'ResourceNotFoundException',
                  Message: "Secrets Manager can't find the specified secret.",
                },
          ),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ARN: secretId, Name: secretId.split(':').pop(), SecretString: value }));
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
}

function listenLocal(server: Server, port: number): Promise<number> {
  return new Promise<number>((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => done((server.address() as AddressInfo).port));
  });
}

/** The port the template gives the extension, or the extension's default. */
function templateExtensionPort(assembly: Assembly): number {
  return Number(
    resourcesOfType(assembly, 'AWS::Lambda::Function')
      .map(([, fn]) => JSON.stringify(fn.Properties.Environment ?? {}))
      .map((text) => /"PARAMETERS_SECRETS_EXTENSION_HTTP_PORT":"(\d+)"/.exec(text)?.[1])
      .find((port) => port !== undefined) ?? 2773,
  );
}
