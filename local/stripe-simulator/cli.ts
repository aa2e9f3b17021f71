/**
 * Runs the Stripe Checkout simulator for the local stack: `tsx local/stripe-simulator/cli.ts`.
 * Environment: STRIPE_SIMULATOR_PORT (default 12111), STRIPE_WEBHOOK_URL and STRIPE_WEBHOOK_SECRET
 * (both or neither: without them events are only logged).
 */
import { DEFAULT_PORT, startStripeSimulator } from './server';

function readPort(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_PORT;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`STRIPE_SIMULATOR_PORT must be a port number (0-65535), not "${value}"`);
  }
  return port;
}

function readWebhook(
  url: string | undefined,
  secret: string | undefined,
): { url: string; secret: string } | undefined {
  if (!url && !secret) return undefined;
  if (!url || !secret) {
    throw new Error(
      'Set both STRIPE_WEBHOOK_URL and STRIPE_WEBHOOK_SECRET, or neither, for the Stripe simulator',
    );
  }
  if (!URL.canParse(url)) throw new Error(`STRIPE_WEBHOOK_URL is not a URL: "${url}"`);
  return { url, secret };
}

async function main(): Promise<void> {
  const webhook = readWebhook(process.env.STRIPE_WEBHOOK_URL, process.env.STRIPE_WEBHOOK_SECRET);
  const simulator = await startStripeSimulator({
    port: readPort(process.env.STRIPE_SIMULATOR_PORT),
    webhook,
    log: (line) => console.log(`[stripe-simulator] ${line}`),
  });
  console.log(`Stripe Checkout simulator listening on ${simulator.url}`);
  console.log(
    webhook === undefined ? 'No webhook endpoint: events are logged only' : `Webhooks go to ${webhook.url}`,
  );
  const stop = () => {
    simulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(
    `Stripe simulator failed to start: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
