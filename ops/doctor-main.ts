import { fileURLToPath } from 'node:url';
import Stripe from 'stripe';
import { HANDLED_WEBHOOK_EVENTS } from '../shared/stripe-webhook-events';
import { runDoctor } from './doctor';
import { createStageAwsClients } from './stage-aws';
import { operatorStripeClient } from './stripe-account';

// As in main.ts: the SDK's Node-version notice would print above every answer on Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

// `npm run doctor -- --stage NAME [--region R]`: docs/deploy.md.
process.exitCode = await runDoctor(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  env: process.env,
  aws: createStageAwsClients,
  stripe: (key) => operatorStripeClient(key),
  fetch,
  now: () => new Date(),
  checkoutOrigin: 'https://checkout.stripe.com',
  events: HANDLED_WEBHOOK_EVENTS,
  apiVersion: Stripe.API_VERSION,
  cdkJsonPath: fileURLToPath(new URL('../cdk.json', import.meta.url)),
});
