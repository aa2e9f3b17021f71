import Stripe from 'stripe';
import { HANDLED_WEBHOOK_EVENTS } from '../shared/stripe-webhook-events';
import { createStageAwsClients } from './stage-aws';
import { operatorStripeClient } from './stripe-account';

/** `repoRoot` is each entry's own folder: a linked checkout keeps its own cdk.json. */
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
