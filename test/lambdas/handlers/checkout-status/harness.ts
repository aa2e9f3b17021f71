import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { z } from 'zod';
import { createStatusHandler } from '../../../../lambdas/handlers/checkout-status/handler';
import { checkoutStatusSchema } from '../../../../shared/checkout-status';
import { PUBLIC_API_ROUTES } from '../../../../shared/public-routes';
import { apiGatewayEvent, jsonBody } from '../../../support/api-gateway-event';
import { TEST_SHOP_ID } from '../../../support/shop';
import {
  checkoutEvent,
  createdSession,
  type Harness,
  startHarness,
  validOrder,
} from '../create-checkout/harness';

export interface StatusHarness extends Harness {
  status: ReturnType<typeof createStatusHandler>;
  /** Creates a session through the real create-checkout handler and returns its id. */
  createSession: (body?: unknown) => Promise<string>;
}

/** The simulator, the create-checkout handler to make real sessions, and the status handler under test. */
export async function startStatusHarness(): Promise<StatusHarness> {
  const harness = await startHarness();
  return {
    ...harness,
    // Built for each request, so each test runs the handler's wiring too (see startHarness).
    status: (event) => createStatusHandler({ stripe: harness.stripe, shopId: TEST_SHOP_ID })(event),
    createSession: async (body = validOrder) =>
      createdSession(await harness.handle(checkoutEvent({ body }))).sessionId,
  };
}

/** `GET /functions/v1/checkout-status?session_id=...` as API Gateway delivers it. */
export function statusEvent(sessionId?: string): APIGatewayProxyEventV2 {
  return apiGatewayEvent({
    method: 'GET',
    path: PUBLIC_API_ROUTES.checkoutStatus.path,
    headers: { accept: 'application/json' },
    ...(sessionId !== undefined && { queryStringParameters: { session_id: sessionId } }),
  });
}

/** The 200 answer: exactly the shared schema's keys, nothing more (a strict parse). */
export function statusAnswer(result: { statusCode?: number | undefined; body?: string | undefined }) {
  if (result.statusCode !== 200) throw new Error(`expected 200, got ${result.statusCode}: ${result.body}`);
  return z.strictObject(checkoutStatusSchema.shape).parse(jsonBody(result));
}
