import Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../lambdas/lib/config';
import { HttpError, json } from '../../../lambdas/lib/http';
import { httpEndpoint, httpRoutes, routeLogName } from '../../../lambdas/lib/http-handler';
import { logger } from '../../../lambdas/lib/logger';
import { apiGatewayEvent, jsonBody } from '../../support/api-gateway-event';
import { captureLogs } from '../../support/logs';

class ParcelTooHeavyError extends Error {}

interface Deps {
  greeting: string;
}

/** An endpoint over a counting loader, so the tests see how often the dependencies are built. */
function endpoint(options: { load?: () => Promise<Deps>; handle?: () => Promise<never> } = {}) {
  const calls = { load: 0, handle: 0 };
  const handler = httpEndpoint<Deps>({
    route: { method: 'POST', path: '/functions/v1/greet' },
    deps: () => {
      calls.load += 1;
      return options.load ? options.load() : Promise.resolve({ greeting: 'hello' });
    },
    handle: async ({ deps }) => {
      calls.handle += 1;
      if (options.handle) return options.handle();
      return json(200, { said: deps.greeting });
    },
    mapError: (error) =>
      error instanceof ParcelTooHeavyError ? json(422, { error: 'Too heavy.' }) : undefined,
  });
  return { handler, calls };
}

beforeAll(() => logger.setLogLevel('SILENT'));

const post = () => apiGatewayEvent({ method: 'POST', path: '/functions/v1/greet' });

describe('httpEndpoint: method guard', () => {
  it.each(['GET', 'PUT', 'DELETE'])(
    'answers %s with 405, an allow header and no work done',
    async (method) => {
      const { handler, calls } = endpoint();

      const result = await handler(apiGatewayEvent({ method, path: '/functions/v1/greet' }));

      expect(result.statusCode).toBe(405);
      expect(result.headers?.allow).toBe('POST');
      expect(result.headers?.['cache-control']).toBe('no-store');
      expect(jsonBody(result)).toEqual({ error: 'Use POST.' });
      expect(calls).toEqual({ load: 0, handle: 0 });
    },
  );

  it('passes the allowed method through to the endpoint', async () => {
    const { handler } = endpoint();

    const result = await handler(post());

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual({ said: 'hello' });
  });
});

describe('httpEndpoint: dependencies', () => {
  it('loads them once for every request of a warm container', async () => {
    const { handler, calls } = endpoint();

    await handler(post());
    await handler(post());
    await handler(post());

    expect(calls.load).toBe(1);
    expect(calls.handle).toBe(3);
  });

  it('answers 503 while they cannot be loaded, then recovers on the next request', async () => {
    let failuresLeft = 2;
    const { handler, calls } = endpoint({
      load: async () => {
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          throw new Error('Secrets Manager unreachable');
        }
        return { greeting: 'back again' };
      },
    });

    const first = await handler(post());
    const second = await handler(post());
    const third = await handler(post());
    const fourth = await handler(post());

    expect([first.statusCode, second.statusCode, third.statusCode, fourth.statusCode]).toEqual([
      503, 503, 200, 200,
    ]);
    expect(jsonBody(first)).toEqual({
      error: 'The shop is temporarily unavailable. Please try again in a few minutes.',
    });
    expect(first.body).not.toContain('Secrets Manager');
    expect(jsonBody(fourth)).toEqual({ said: 'back again' });
    expect(calls.load).toBe(3);
    expect(calls.handle).toBe(2);
  });

  it('logs the setting names of a configuration error, with the log keys', async () => {
    const { handler } = endpoint({ load: () => Promise.reject(new ConfigError(['SITE_URL: Invalid URL'])) });
    const event = post();

    const lines = await captureLogs(() => handler(event));

    const line = lines.find((entry) => entry.statusCode === 503);
    expect(line).toMatchObject({
      requestId: event.requestContext.requestId,
      route: 'greet',
      problems: ['SITE_URL: Invalid URL'],
    });
  });
});

describe('httpEndpoint: dependencies built already', () => {
  it('uses them as given, without a mapper of its own', async () => {
    const handler = httpEndpoint<Deps>({
      route: { method: 'POST', path: '/functions/v1/greet' },
      deps: { greeting: 'built in the test' },
      handle: async ({ deps }) => json(200, { said: deps.greeting }),
    });

    const result = await handler(post());

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual({ said: 'built in the test' });
  });

  it('answers with the shared mapping when it has no mapper', async () => {
    const handler = httpEndpoint<Deps>({
      route: { method: 'POST', path: '/functions/v1/greet' },
      deps: { greeting: 'hello' },
      handle: async () => {
        throw new HttpError(409, { error: 'Already greeted.' });
      },
    });

    const result = await handler(post());

    expect(result.statusCode).toBe(409);
    expect(jsonBody(result)).toEqual({ error: 'Already greeted.' });
  });
});

describe('httpEndpoint: log keys', () => {
  it("puts the viewer's address (CloudFront's, not API Gateway's source IP) on every line of the request", async () => {
    const { handler } = endpoint({ handle: () => Promise.reject(new TypeError('boom')) });
    const event = apiGatewayEvent({
      method: 'POST',
      path: '/functions/v1/greet',
      headers: { 'cloudfront-viewer-address': '198.51.100.23:49152' },
    });

    const lines = await captureLogs(() => handler(event));

    expect(lines.find((entry) => entry.statusCode === 500)).toMatchObject({
      requestId: event.requestContext.requestId,
      route: 'greet',
      viewerAddress: '198.51.100.23',
    });
  });
});

describe('httpEndpoint: error mapping', () => {
  it('answers an unknown error with a generic 500 that carries no detail, detail in the log', async () => {
    const { handler } = endpoint({
      handle: () => Promise.reject(new TypeError("Cannot read properties of undefined (reading 'pk')")),
    });
    const event = post();

    const results: Array<Awaited<ReturnType<typeof handler>>> = [];
    const lines = await captureLogs(async () => results.push(await handler(event)));
    const [result] = results;

    expect(result?.statusCode).toBe(500);
    expect(jsonBody(result ?? {})).toEqual({ error: 'Something went wrong. Please try again.' });
    expect(result?.body).not.toContain('pk');
    expect(lines.find((entry) => entry.statusCode === 500)).toMatchObject({
      requestId: event.requestContext.requestId,
      route: 'greet',
      message: 'Unexpected error',
    });
  });

  it("uses the endpoint's mapper for its own errors", async () => {
    const { handler } = endpoint({ handle: () => Promise.reject(new ParcelTooHeavyError('12 kg')) });

    const result = await handler(post());

    expect(result.statusCode).toBe(422);
    expect(jsonBody(result)).toEqual({ error: 'Too heavy.' });
  });

  it('keeps the status, body and headers of an HttpError the mapper does not claim', async () => {
    const { handler } = endpoint({
      handle: () =>
        Promise.reject(new HttpError(413, { error: 'Too big.' }, { headers: { 'retry-after': '5' } })),
    });

    const result = await handler(post());

    expect(result.statusCode).toBe(413);
    expect(result.headers?.['retry-after']).toBe('5');
    expect(jsonBody(result)).toEqual({ error: 'Too big.' });
  });

  it('answers a Stripe SDK error that reached it unwrapped with a generic 502', async () => {
    const stripeError = new Stripe.errors.StripeAPIError({ message: 'Stripe is down', type: 'api_error' });
    const { handler } = endpoint({ handle: () => Promise.reject(stripeError) });

    const result = await handler(post());

    expect(result.statusCode).toBe(502);
    expect(jsonBody(result)).toEqual({ error: 'Unable to process your order. Please try again.' });
  });
});

describe('routeLogName', () => {
  it("names a route on log lines by its path after the API's prefix, a slash as a dash", () => {
    expect(routeLogName({ path: '/functions/v1/create-checkout' })).toBe('create-checkout');
    expect(routeLogName({ path: '/functions/v1/order-page/address' })).toBe('order-page-address');
  });
});

describe('httpRoutes: one function for several routes', () => {
  const read = { method: 'GET', path: '/functions/v1/page' } as const;
  const correct = { method: 'POST', path: '/functions/v1/page/fix' } as const;
  const handler = httpRoutes(
    [
      [read, httpEndpoint({ route: read, deps: {}, handle: async () => json(200, { did: 'read' }) })],
      [correct, httpEndpoint({ route: correct, deps: {}, handle: async () => json(200, { did: 'fix' }) })],
    ],
    json(404, { error: 'Nothing here.' }),
  );

  it("picks the endpoint by the event's path", async () => {
    const fixed = await handler(apiGatewayEvent({ method: 'POST', path: '/functions/v1/page/fix' }));
    const shown = await handler(apiGatewayEvent({ method: 'GET', path: '/functions/v1/page' }));

    expect(jsonBody(fixed)).toEqual({ did: 'fix' });
    expect(jsonBody(shown)).toEqual({ did: 'read' });
  });

  it("leaves the method to the endpoint: the wrong one is a 405 naming the route's", async () => {
    const result = await handler(apiGatewayEvent({ method: 'GET', path: '/functions/v1/page/fix' }));

    expect(result.statusCode).toBe(405);
    expect(result.headers?.allow).toBe('POST');
  });

  it('answers its not-found for a path of none of its routes', async () => {
    const result = await handler(apiGatewayEvent({ method: 'GET', path: '/functions/v1/other' }));

    expect(result.statusCode).toBe(404);
    expect(jsonBody(result)).toEqual({ error: 'Nothing here.' });
  });
});
