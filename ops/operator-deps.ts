import Stripe from 'stripe';
import { HANDLED_WEBHOOK_EVENTS } from '../shared/stripe-webhook-events';
import { createStageAwsClients } from './stage-aws';
import { operatorStripeClient } from './stripe-account';

/**
 * What setup and doctor both reach a stage with: the operator's AWS and Stripe, the real clock,
 * and `repoRoot`'s cdk.json (each entry's own folder: a linked checkout keeps its own).
 */
export const operatorDeps = (repoRoot: string) => ({
  out: (line: string) => process.stdout.write(`${line}\n`),
  env: process.env,
  aws: createStageAwsClients,
  stripe: (key: string) => operatorStripeClient(key),
  fetch,
  now: () => new Date(),
  checkoutOrigin: 'https://checkout.stripe.com',
  events: HANDLED_WEBHOOK_EVENTS,
  apiVersion: Stripe.API_VERSION,
  cdkJsonPath: `${repoRoot}cdk.json`,
});
