import { initOnce } from './cold-start';
import { DependenciesUnavailableError, type GenericMessages, sharedErrorResponse } from './error-response';
import { HttpError, type HttpEvent, type HttpResult, viewerAddress } from './http';

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

/**
 * `deps` loaded once per cold start: a loader run on first use (a failed load runs again at the
 * next use), or, built already, used as given.
 */
export function loadOnce<Deps extends object>(deps: DepsOrLoader<Deps>): () => Promise<Deps> {
  return initOnce(typeof deps === 'function' ? deps : async () => deps);
}

export interface HttpEndpoint<Deps> {
  /** The endpoint's name on every log line, e.g. `create-checkout`. */
  route: string;
  /** The one method it answers; any other gets 405 with an `allow` header, before any work. */
  method: 'GET' | 'POST';
  /**
   * Loads the dependencies (clients, settings). Runs once per cold start, on the first request
   * that gets past the method guard; if it fails, that request answers 503 and the next one tries
   * again instead of the container failing until it is recycled. Built already: used as given.
   */
  deps: DepsOrLoader<Deps>;
  /** The endpoint's work: usually a domain function called with the dependencies, mapped to JSON. */
  handle: (request: HttpRequest<Deps>) => Promise<HttpResult>;
  /**
   * Maps the endpoint's own domain errors to answers (and logs them); returns undefined for
   * everything else, which falls through to the shared mapping.
   */
  mapError?: (error: unknown, logKeys: LogKeys) => HttpResult | undefined;
  /** Endpoint-specific wording for the shared generic answers (503, 502, 500). */
  messages?: Partial<GenericMessages>;
}

/**
 * Builds a Lambda handler for one HTTP API route from the steps every endpoint repeats: the
 * method guard, dependencies loaded once, log keys, and one error mapping (the endpoint's
 * `mapError` first, then `sharedErrorResponse`). A new endpoint is then a route and a domain
 * function. Our own rather than Powertools' event-handler router: the router added about 3 ms
 * to a cold load, and one function per route needs no routing (docs/decisions/0008).
 */
export function httpEndpoint<Deps extends object>(
  endpoint: HttpEndpoint<Deps>,
): (event: HttpEvent) => Promise<HttpResult> {
  const loadDeps = loadOnce(endpoint.deps);
  const methodNotAllowed = `Use ${endpoint.method}.`;

  return async (event) => {
    // The viewer's address on every line: API Gateway's access log can only name CloudFront's, so
    // the function's log is where an abusive client is found (joined on requestId).
    const logKeys: LogKeys = {
      requestId: event.requestContext.requestId,
      route: endpoint.route,
      viewerAddress: viewerAddress(event),
    };
    try {
      if (event.requestContext.http.method !== endpoint.method) {
        throw new HttpError(405, { error: methodNotAllowed }, { headers: { allow: endpoint.method } });
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
