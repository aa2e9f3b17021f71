import { PUBLIC_API_PREFIX, type PublicRoute } from '../../shared/public-routes';
import { initOnce } from './cold-start';
import { DependenciesUnavailableError, type GenericMessages, sharedErrorResponse } from './error-response';
import { HttpError, type HttpEvent, type HttpResult, json, viewerAddress } from './http';

/** Fields put on every log line of one request. The endpoint may add its own (an event id, say). */
export type LogKeys = Record<string, unknown>;

/** What an endpoint's own code receives: the request, its loaded dependencies and its log keys. */
export interface HttpRequest<Deps> {
  event: HttpEvent;
  deps: Deps;
  logKeys: LogKeys;
}

/** An endpoint's dependencies as given: built already (tests), or a loader (the Lambda's cold start). */
export type DepsOrLoader<Deps> = Deps | (() => Promise<Deps>);

/** `deps` once per cold start: a loader run on first use (again next time if it failed), or used as given. */
export function loadOnce<Deps extends object>(deps: DepsOrLoader<Deps>): () => Promise<Deps> {
  return initOnce(typeof deps === 'function' ? deps : async () => deps);
}

export interface HttpEndpoint<Deps> {
  /** Its route in a table: the one method it answers (any other gets 405 with `allow`, before any work). */
  route: Pick<PublicRoute, 'method' | 'path'>;
  /** Its name on every log line; by default its path after the API's prefix (`order-page-address`). */
  logName?: string;
  /** Loaded on the first request past the method guard; a failure answers 503 and the next one retries. */
  deps: DepsOrLoader<Deps>;
  /** The endpoint's work: usually a domain function called with the dependencies, mapped to JSON. */
  handle: (request: HttpRequest<Deps>) => Promise<HttpResult>;
  /** The endpoint's own domain errors to answers (logged); undefined falls through to the shared mapping. */
  mapError?: (error: unknown, logKeys: LogKeys) => HttpResult | undefined;
  /** Endpoint-specific wording for the shared generic answers (503, 502, 500). */
  messages?: Partial<GenericMessages>;
}

/**
 * A Lambda handler for one HTTP API route: method guard, deps loaded once, log keys, one error mapping
 * (`mapError`, then `sharedErrorResponse`). Not Powertools' router: it added about 3 ms to a cold load, and
 * one function per route needs no routing (docs/decisions/0008).
 */
export function httpEndpoint<Deps extends object>(
  endpoint: HttpEndpoint<Deps>,
): (event: HttpEvent) => Promise<HttpResult> {
  const loadDeps = loadOnce(endpoint.deps);
  const { method } = endpoint.route;
  const methodNotAllowed = `Use ${method}.`;
  const routeName = endpoint.logName ?? routeLogName(endpoint.route);

  return async (event) => {
    // The viewer's address on every line: API Gateway's access log can only name CloudFront's, so
    // the function's log is where an abusive client is found (joined on requestId).
    const logKeys: LogKeys = {
      requestId: event.requestContext.requestId,
      route: routeName,
      viewerAddress: viewerAddress(event),
    };
    try {
      if (event.requestContext.http.method !== method) {
        throw new HttpError(405, { error: methodNotAllowed }, { headers: { allow: method } });
      }
      const resolved = await loadDeps().catch((cause: unknown) => {
        throw new DependenciesUnavailableError({ cause });
      });
      return await endpoint.handle({ event, deps: resolved, logKeys });
    } catch (error) {
      return endpoint.mapError?.(error, logKeys) ?? sharedErrorResponse(error, logKeys, endpoint.messages);
    }
  };
}

/** A route's name on log lines: its path after the API's prefix, `/` as `-` (`order-page-address`). */
export function routeLogName(route: Pick<PublicRoute, 'path'>): string {
  return route.path.slice(PUBLIC_API_PREFIX.length).replaceAll('/', '-');
}

/**
 * One function for several routes (the order page's read and correction): the path picks the endpoint; an
 * unknown path answers `notFound` (API Gateway sends none, but a function may be invoked by hand).
 */
export function httpRoutes(
  endpoints: ReadonlyArray<readonly [Pick<PublicRoute, 'path'>, (event: HttpEvent) => Promise<HttpResult>]>,
  notFound: HttpResult = json(404, { error: 'Not found.' }),
): (event: HttpEvent) => Promise<HttpResult> {
  const byPath = new Map(endpoints.map(([route, endpoint]) => [route.path, endpoint]));
  return async (event) => byPath.get(event.rawPath)?.(event) ?? notFound;
}
