import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { z } from 'zod';
import { eventWithinLimit, sendApiGatewayResult } from '../api-gateway-adapter';
import { fetchJwks, withJwtAuthorizer } from '../jwt-authorizer';
import { type Assembly, mentionedIds, referencedId, resourcesOfType } from './assembly';
import type { RunningFunction } from './function-host';

/** API Gateway's own answers, when no function runs. */
const GATEWAY = {
  notFound: { statusCode: 404, body: { message: 'Not Found' } },
  unauthorized: { statusCode: 401, body: { message: 'Unauthorized' } },
  forbidden: { statusCode: 403, body: { message: 'Forbidden' } },
  internal: { statusCode: 500, body: { message: 'Internal Server Error' } },
  tooLarge: { statusCode: 413, body: { message: 'Request Entity Too Large' } },
  timedOut: { statusCode: 504, body: { message: 'Gateway Timeout' } },
} as const;

/** An HTTP API integration's limit when the template sets no `TimeoutInMillis` (also AWS's maximum). */
const DEFAULT_INTEGRATION_TIMEOUT_MS = 30_000;

function gatewayAnswer(answer: { statusCode: number; body: object }): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: answer.statusCode,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(answer.body),
  };
}

const resultSchema = z.object({
  statusCode: z.number().int().optional(),
  headers: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  body: z.string().optional(),
  isBase64Encoded: z.boolean().optional(),
  cookies: z.array(z.string()).optional(),
});

/** Payload 2.0: a result without a statusCode is a 200 with the result as its JSON body. */
function asHttpResult(result: unknown): APIGatewayProxyStructuredResultV2 {
  const parsed = resultSchema.safeParse(result);
  if (parsed.success && parsed.data.statusCode !== undefined) return parsed.data;
  return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(result) };
}

const simpleAnswerSchema = z.object({
  isAuthorized: z.boolean(),
  context: z.record(z.string(), z.unknown()).optional(),
});

type Authorize = (
  event: APIGatewayProxyEventV2,
) => Promise<
  { ok: true; event: APIGatewayProxyEventV2 } | { ok: false; answer: APIGatewayProxyStructuredResultV2 }
>;

export interface HttpApiOptions {
  assembly: Assembly;
  functions: ReadonlyMap<string, RunningFunction>;
  /** The identity stand-in that answers for the template's Cognito issuer. */
  identityProvider: { url: string; jwksUrl: string };
  log: (line: string) => void;
}

/** The HTTP API as its template defines it: route keys, Lambda proxy integrations, authorizers. */
export async function createHttpApi(options: HttpApiOptions) {
  const functionNamed = functionFinder(options.functions);
  const authorizers = await readAuthorizers(options, functionNamed);
  const routes = readRoutes(options.assembly, functionNamed, authorizers);
  const { log } = options;

  /** One request, as the API answers it; returns the status sent. */
  return async function serveApi(
    req: IncomingMessage,
    res: ServerResponse,
    addHeaders: Readonly<Record<string, string>>,
  ): Promise<number> {
    const received = await eventWithinLimit(req, res, gatewayAnswer(GATEWAY.tooLarge));
    if (received === undefined) return 413;
    const event = { ...received, headers: { ...received.headers, ...addHeaders } };
    const route = routes.get(event.routeKey);
    let result: APIGatewayProxyStructuredResultV2;
    if (!route) {
      result = gatewayAnswer(GATEWAY.notFound);
    } else {
      const authorized = route.authorize ? await route.authorize(event) : { ok: true as const, event };
      if (!authorized.ok) {
        result = authorized.answer;
      } else {
        result = await answerInTime(
          route.invoke.invoke(authorized.event).then(asHttpResult, (error: unknown) => {
            log(`${route.invoke.name}: ${error instanceof Error ? error.message : String(error)}`);
            return gatewayAnswer(GATEWAY.internal);
          }),
          route.timeoutMs,
          () => log(`${route.invoke.name}: no answer within the integration’s ${route.timeoutMs} ms: 504`),
        );
      }
    }
    sendApiGatewayResult(res, result);
    return result.statusCode ?? 200;
  };
}

type FunctionNamed = (value: unknown) => RunningFunction;

/** The running function a template value (an integration's or authorizer's URI) names. */
function functionFinder(functions: ReadonlyMap<string, RunningFunction>): FunctionNamed {
  return (value) => {
    const id = mentionedIds(value).find((candidate) => functions.has(candidate));
    const running = id === undefined ? undefined : functions.get(id);
    if (!running) {
      throw new Error(`No function for ${JSON.stringify(value)} among ${[...functions.keys()].join(', ')}`);
    }
    return running;
  };
}

/** The template's authorizers by logical id: Lambda REQUEST authorizers and JWT authorizers. */
async function readAuthorizers(
  options: HttpApiOptions,
  functionNamed: FunctionNamed,
): Promise<ReadonlyMap<string, Authorize>> {
  const { assembly } = options;
  const authorizers = new Map<string, Authorize>();
  for (const [id, resource] of resourcesOfType(assembly, 'AWS::ApiGatewayV2::Authorizer')) {
    const props = resource.Properties;
    if (props.AuthorizerType === 'REQUEST') {
      const identitySources = z.array(z.string()).parse(props.IdentitySource ?? []);
      authorizers.set(id, lambdaAuthorizer(functionNamed(props.AuthorizerUri), identitySources));
    } else if (props.AuthorizerType === 'JWT') {
      const jwt = z
        .object({ Issuer: z.unknown(), Audience: z.array(z.unknown()) })
        .parse(props.JwtConfiguration);
      // The template's user pool is the identity stand-in; its app client id is the template's audience.
      const clientId = assembly.resolveString(assembly.app.name, jwt.Audience[0]);
      const jwks = await fetchJwks(options.identityProvider.jwksUrl);
      authorizers.set(id, async (event) => {
        let passed: APIGatewayProxyEventV2 | undefined;
        const answer = await withJwtAuthorizer(
          async (authorized) => {
            passed = authorized;
            return { statusCode: 200 };
          },
          { issuer: options.identityProvider.url, clientId, jwks },
        )(event);
        return passed ? { ok: true, event: passed } : { ok: false, answer };
      });
    }
  }
  return authorizers;
}

/** A Lambda REQUEST authorizer with simple responses, its identity sources checked first. */
function lambdaAuthorizer(authorizer: RunningFunction, identitySources: readonly string[]): Authorize {
  return async (event) => {
    const headers = event.headers;
    const values = identitySources.map((source) =>
      source.startsWith('$request.header.') ? headers[source.slice(16).toLowerCase()] : undefined,
    );
    // API Gateway refuses a request missing an identity source before the authorizer runs.
    if (values.some((value) => value === undefined || value === '')) {
      return { ok: false, answer: gatewayAnswer(GATEWAY.unauthorized) };
    }
    const answer = simpleAnswerSchema.safeParse(
      await authorizer
        .invoke({ ...event, type: 'REQUEST', routeArn: event.routeKey, identitySource: values })
        .catch(() => undefined),
    );
    if (!answer.success) return { ok: false, answer: gatewayAnswer(GATEWAY.internal) };
    if (!answer.data.isAuthorized) return { ok: false, answer: gatewayAnswer(GATEWAY.forbidden) };
    return {
      ok: true,
      event: {
        ...event,
        requestContext: { ...event.requestContext, authorizer: { lambda: answer.data.context ?? {} } },
      },
    };
  };
}

interface ApiRoute {
  invoke: RunningFunction;
  authorize: Authorize | undefined;
  timeoutMs: number;
}

/** The template's routes by route key, each with its function, authorizer and integration timeout. */
function readRoutes(
  assembly: Assembly,
  functionNamed: FunctionNamed,
  authorizers: ReadonlyMap<string, Authorize>,
): ReadonlyMap<string, ApiRoute> {
  const resources = assembly.app.template.Resources;
  const routes = new Map<string, ApiRoute>();
  for (const [, resource] of resourcesOfType(assembly, 'AWS::ApiGatewayV2::Route')) {
    const props = resource.Properties;
    const routeKey = z.string().parse(props.RouteKey);
    const integrationId = mentionedIds(props.Target)[0];
    const integration = integrationId === undefined ? undefined : resources[integrationId];
    if (integration?.Properties.IntegrationType !== 'AWS_PROXY') {
      throw new Error(`Route ${routeKey}: only Lambda proxy integrations are rehearsed`);
    }
    const authorizerId = referencedId(props.AuthorizerId);
    routes.set(routeKey, {
      invoke: functionNamed(integration.Properties.IntegrationUri),
      authorize: authorizerId === undefined ? undefined : authorizers.get(authorizerId),
      timeoutMs: z
        .number()
        .int()
        .positive()
        .default(DEFAULT_INTEGRATION_TIMEOUT_MS)
        .parse(integration.Properties.TimeoutInMillis),
    });
  }
  return routes;
}

/**
 * The function's answer, or API Gateway's 504 once the integration's limit passes: the customer
 * gets the gateway's answer while the function runs on to its own Timeout, as in AWS.
 */
async function answerInTime(
  answer: Promise<APIGatewayProxyStructuredResultV2>,
  timeoutMs: number,
  onTimeout: () => void,
): Promise<APIGatewayProxyStructuredResultV2> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<APIGatewayProxyStructuredResultV2>((done) => {
    timer = setTimeout(() => {
      onTimeout();
      done(gatewayAnswer(GATEWAY.timedOut));
    }, timeoutMs);
  });
  try {
    return await Promise.race([answer, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
