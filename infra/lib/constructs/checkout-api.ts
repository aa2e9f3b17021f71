import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  CfnStage,
  CorsHttpMethod,
  HttpApi,
  HttpMethod,
  type HttpRoute,
  HttpStage,
  type IHttpRouteAuthorizer,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import {
  PUBLIC_API_ROUTES,
  type PublicRouteName,
  publicRouteNames,
  type ThrottleClass,
} from '../../../shared/public-routes';
import { acknowledgeNag } from '../nag';

// The API's routes are the public route table's (shared/public-routes.ts, ADR 0050): path, method,
// throttle class. CloudFront sends the whole API prefix here unchanged.

export type ApiRouteName = PublicRouteName;

/** Every route the API deploys, in the table's order. */
export const API_ROUTE_NAMES: readonly ApiRouteName[] = publicRouteNames();

/** One value per route of the table, by name. */
function perRoute<T>(value: (name: ApiRouteName) => T): Readonly<Record<ApiRouteName, T>> {
  return Object.fromEntries(API_ROUTE_NAMES.map((name) => [name, value(name)])) as Record<ApiRouteName, T>;
}

/** `METHOD /path`, as API Gateway names a route in route settings and access logs. */
export function routeKeyOf(route: ApiRouteName): string {
  const { method, path } = PUBLIC_API_ROUTES[route];
  return `${method} ${path}`;
}

/** Steady-state requests per second and burst (token bucket) for a route or the whole stage. */
export interface ThrottleLimits {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/**
 * Stage default, shared by all clients: it caps the total (and the bill); per-client limits are the
 * WAF's (edge-stack.ts).
 */
export const DEFAULT_STAGE_THROTTLE: ThrottleLimits = { rateLimit: 50, burstLimit: 100 };

/**
 * Each throttle class's limits: `checkout` costs Stripe calls, so less than a `read` (a cached
 * settings item); a `write` writes an order and sends an email, so the least.
 */
export const THROTTLE_CLASS_LIMITS: Readonly<Record<ThrottleClass, ThrottleLimits>> = {
  checkout: { rateLimit: 20, burstLimit: 40 },
  read: { rateLimit: 30, burstLimit: 60 },
  webhook: { rateLimit: 40, burstLimit: 80 },
  write: { rateLimit: 10, burstLimit: 20 },
};

/** Per-route limits: each route's throttle class's. */
export const DEFAULT_ROUTE_THROTTLES: Readonly<Record<ApiRouteName, ThrottleLimits>> = perRoute(
  (name) => THROTTLE_CLASS_LIMITS[PUBLIC_API_ROUTES[name].throttle],
);

/**
 * One JSON line per request; no path or query (the query carries the session id). `sourceIp` is
 * CloudFront's edge; `viewerAddress` the customer's, from the origin-verify authorizer's context
 * (`-` on admin routes and refused requests). Functions' log lines carry it too, by `requestId`.
 */
export const ACCESS_LOG_FIELDS: Readonly<Record<string, string>> = {
  requestId: '$context.requestId',
  requestTime: '$context.requestTime',
  sourceIp: '$context.identity.sourceIp',
  viewerAddress: '$context.authorizer.viewerAddress',
  routeKey: '$context.routeKey',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationStatus: '$context.integrationStatus',
  integrationLatency: '$context.integration.latency',
  integrationError: '$context.integrationErrorMessage',
  errorMessage: '$context.error.message',
};

export interface CheckoutApiProps {
  /** Name of the HTTP API in the console and CLI, e.g. `LiveAquatics-prod`; one per stage. */
  readonly apiName: string;
  /** The function behind each route. */
  readonly handlers: Readonly<Record<ApiRouteName, IFunction>>;
  /** The one origin allowed cross-origin; the site calls the API on its own origin, so leave unset. */
  readonly corsOrigin?: string;
  /** Checked before any route's function: the origin-verify authorizer lets in only CloudFront's requests. */
  readonly authorizer?: IHttpRouteAuthorizer;
  /** @default DEFAULT_STAGE_THROTTLE */
  readonly stageThrottle?: ThrottleLimits;
  /** @default DEFAULT_ROUTE_THROTTLES */
  readonly routeThrottles?: Readonly<Record<ApiRouteName, ThrottleLimits>>;
  /** @default three months */
  readonly accessLogRetention?: RetentionDays;
}

/** The HTTP API (payload 2.0) behind CloudFront: per-route throttles on a stage default, JSON access logs. */
export class CheckoutApi extends Construct {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  readonly accessLogs: LogGroup;
  readonly routes: Readonly<Record<ApiRouteName, HttpRoute>>;
  /** Host name of the API's own endpoint, for the CloudFront origin. */
  readonly originDomainName: string;

  constructor(scope: Construct, id: string, props: CheckoutApiProps) {
    super(scope, id);

    this.httpApi = new HttpApi(this, 'HttpApi', {
      apiName: props.apiName,
      description: 'Live Aquatics shop: checkout, checkout status, Stripe webhook',
      createDefaultStage: false,
      corsPreflight:
        props.corsOrigin === undefined
          ? undefined
          : {
              allowOrigins: [props.corsOrigin],
              allowMethods: [CorsHttpMethod.GET, CorsHttpMethod.POST],
              allowHeaders: ['content-type', 'idempotency-key', 'authorization'],
              maxAge: Duration.hours(1),
            },
    });

    this.accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.accessLogRetention ?? RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });

    const stageThrottle = props.stageThrottle ?? DEFAULT_STAGE_THROTTLE;
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: stageThrottle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });

    const addRoute = (name: ApiRouteName): HttpRoute => {
      const { method, path } = PUBLIC_API_ROUTES[name];
      const [route] = this.httpApi.addRoutes({
        path,
        methods: [HttpMethod[method]],
        integration: new HttpLambdaIntegration(`${name}Integration`, props.handlers[name]),
        authorizer: props.authorizer,
      });
      if (route === undefined) {
        throw new Error(`CheckoutApi: no route was created for ${routeKeyOf(name)}`);
      }
      return route;
    };
    this.routes = perRoute(addRoute);

    // The L2 stage sets only the default throttle; per-route limits live in RouteSettings, a
    // free-form JSON property that CloudFormation passes to API Gateway as is (hence PascalCase).
    const cfnStage = this.stage.node.defaultChild;
    if (!(cfnStage instanceof CfnStage)) {
      throw new Error('CheckoutApi: the HTTP stage has no CfnStage to configure');
    }
    const routeThrottles = props.routeThrottles ?? DEFAULT_ROUTE_THROTTLES;
    cfnStage.routeSettings = Object.fromEntries(
      API_ROUTE_NAMES.map((name) => [
        routeKeyOf(name),
        {
          ThrottlingRateLimit: routeThrottles[name].rateLimit,
          ThrottlingBurstLimit: routeThrottles[name].burstLimit,
        },
      ]),
    );
    // RouteSettings name routes by key; CloudFormation rejects the stage if they do not exist yet.
    for (const route of Object.values(this.routes)) {
      this.stage.node.addDependency(route);
    }

    acknowledgeNag(
      this.httpApi,
      'AwsSolutions-APIG4',
      'The routes are public by design: anonymous shoppers start a checkout and read its status, and Stripe calls the webhook. Controls: the webhook verifies the Stripe signature on the raw body before any side effect; checkout validates every field and prices on the server; status returns only non-personal fields for an unguessable session id; the order page opens an order only for a sealed token (ADR 0037); every route is throttled, create-checkout the most, and each function has capped concurrency.',
    );

    this.originDomainName = `${this.httpApi.apiId}.execute-api.${Stack.of(this).region}.${Stack.of(this).urlSuffix}`;
  }
}
