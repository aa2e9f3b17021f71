/**
 * The checkout benches' stand-ins (the Stripe simulator, dynalite and the SES stand-in) in a process of
 * their own, started by the checkout and warm benchmarks (shop.ts): in AWS, DynamoDB and Stripe do their work on other
 * machines, so their CPU must not be counted in the handler's latency. Prints the environment a
 * handler needs as one JSON line, and stops when its parent closes its stdin.
 */
import { startStripeSimulator } from '../../local/stripe-simulator/server';
import { standInEnvironment, startStandIns } from '../../test/support/stand-ins';

const simulator = await startStripeSimulator({ port: 0 });
const standIns = await startStandIns();
process.stdout.write(
  `${JSON.stringify({ STRIPE_API_BASE: simulator.url, ...standInEnvironment(standIns) })}\n`,
);
process.stdin.resume();
process.stdin.on('end', () => {
  void Promise.all([simulator.close(), standIns.close()]).then(() => process.exit(0));
});
