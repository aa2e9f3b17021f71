import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheckoutHandler } from '../../../../lambdas/handlers/create-checkout/handler';
import { logger } from '../../../../lambdas/lib/logger';
import { createStripeClient } from '../../../../lambdas/lib/stripe';
import { jsonBody } from '../../../support/api-gateway-event';
import { checkoutEvent, SITE_URL, TEST_SECRET_KEY, validOrder, withLogs } from './harness';

/**
 * A stand-in for Stripe that refuses every session's `customer_email` exactly as Stripe does
 * (HTTP 400, `invalid_request_error`, `email_invalid`, `param: customer_email`): our own checks
 * pass addresses the simulator takes too, so only a stand-in can show this answer.
 */
function startRefusingStripe(param: string): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(400, { 'content-type': 'application/json', 'request-id': 'req_refused' });
      res.end(
        JSON.stringify({
          error: {
            type: 'invalid_request_error',
            code: param === 'customer_email' ? 'email_invalid' : 'parameter_invalid',
            param,
            message: `Invalid email address: ${validOrder.email}`,
          },
        }),
      );
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('create-checkout: Stripe refuses the customer email', () => {
  const servers: Server[] = [];
  const handlerFor = async (param: string) => {
    const server = await startRefusingStripe(param);
    servers.push(server);
    const stripe = createStripeClient(TEST_SECRET_KEY, {
      apiBase: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      maxNetworkRetries: 0,
    });
    return createCheckoutHandler({
      stripe,
      siteUrl: SITE_URL,
      cutoffHours: 36,
      shopId: 'LiveAquatics-test',
      publicApiKey: undefined,
    });
  };

  beforeAll(() => {
    logger.setLogLevel('SILENT');
  });
  afterAll(() => Promise.all(servers.map((server) => new Promise((done) => server.close(done)))));

  it('answers 400 with a message on the email field, not a generic 502, and logs no address', async () => {
    // Prepare
    const handle = await handlerFor('customer_email');

    // Act
    const { result, logged } = await withLogs(() => handle(checkoutEvent()));

    // Assess
    expect(result.statusCode).toBe(400);
    expect(jsonBody(result)).toEqual({
      error: 'Our payment provider did not accept this email address. Please check it, or use another.',
      fields: {
        email: 'Our payment provider did not accept this email address. Please check it, or use another.',
      },
    });
    expect(logged).toContain('email_invalid');
    expect(logged).not.toContain(validOrder.email);
  });

  it('keeps any other invalid request a generic 502', async () => {
    // Prepare
    const handle = await handlerFor('line_items[0][quantity]');

    // Act
    const result = await handle(checkoutEvent());

    // Assess
    expect(result.statusCode).toBe(502);
    expect(jsonBody(result)).toEqual({ error: 'Unable to process your order. Please try again.' });
  });
});
