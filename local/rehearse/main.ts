/**
 * `npm run rehearse`: the shop as AWS will run it, on this machine. Synthesises the dev stage as
 * `cdk deploy` would (or serves `--assembly DIR` as it is) and serves it on `npm start`'s ports.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { startRehearsal } from './rehearsal';
import { cachedStage } from './synth';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const USAGE = `Usage: npm run rehearse [-- --assembly DIR] [-- --stage STAGE]

Serves the shop from a synthesised cloud assembly: the site and CloudFront's behaviours, the HTTP
API's routes and authorizers, each function's bundle with its template environment, and every AWS
call checked against the function's role. Without --assembly, synthesises the stage into
.cache/rehearse/ (reused while infra/, lambdas/, shared/, web/ and package-lock.json are unchanged).`;

const { values } = parseArgs({
  options: {
    assembly: { type: 'string' },
    stage: { type: 'string', default: 'dev' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const env = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    LOCAL_DYNAMODB_PORT: z.coerce.number().int().min(0).max(65535).default(8000),
    LOCAL_SES_PORT: z.coerce.number().int().min(0).max(65535).default(8005),
    STRIPE_SIMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(12111),
    LOCAL_IDP_PORT: z.coerce.number().int().min(0).max(65535).default(8010),
    // The template's extension port (2773) unless moved, e.g. for browser tests beside another rehearsal.
    REHEARSAL_EXTENSION_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    // Schedules' run-now (POST /__rehearse/schedules/<rule>/run), on 127.0.0.1 only.
    LOCAL_FORECAST_PORT: z.coerce.number().int().min(0).max(65535).default(4012),
    REHEARSAL_CONTROL_PORT: z.coerce.number().int().min(0).max(65535).default(8020),
    // As `npm start`'s: the weather check (and its forecast stand-in) as if at this instant.
    LOCAL_WEATHER_NOW: z.iso.datetime({ offset: true }).optional(),
  })
  .parse(process.env);

const stage = values.stage;
const assemblyDir =
  values.assembly === undefined
    ? (
        await cachedStage(stage, { log: (line) => console.log(line) }).catch((error: unknown) => {
          console.error(error instanceof Error ? error.message : String(error));
          process.exit(1);
        })
      ).dir
    : resolve(values.assembly);

const rehearsal = await startRehearsal({
  assemblyDir,
  stage,
  port: env.PORT,
  dynamoPort: env.LOCAL_DYNAMODB_PORT,
  sesPort: env.LOCAL_SES_PORT,
  simulatorPort: env.STRIPE_SIMULATOR_PORT,
  identityProviderPort: env.LOCAL_IDP_PORT,
  extensionPort: env.REHEARSAL_EXTENSION_PORT,
  controlPort: env.REHEARSAL_CONTROL_PORT,
  forecastPort: env.LOCAL_FORECAST_PORT,
  weatherNow: env.LOCAL_WEATHER_NOW === undefined ? undefined : new Date(env.LOCAL_WEATHER_NOW),
  log: (line) => console.log(`  ${line}`),
}).catch((error: unknown) => {
  console.error(`Could not start the rehearsal: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

console.log(`
Live Aquatics, rehearsed from ${assemblyDir}:
  Shop                     ${rehearsal.url}
  Stripe Checkout          ${rehearsal.simulator.url} (simulator: pay with 4242 4242 4242 4242)
  SES inbox                ${rehearsal.sesUrl}
  Admin                    ${rehearsal.url}/admin (sign in at ${rehearsal.identityProvider.url})
  Schedules, run now       curl -X POST ${rehearsal.controlUrl}/__rehearse/schedules/<rule>/run
  Push service (stand-in)  ${rehearsal.pushUrl}/pushes (what the merchant's devices were sent)
Press Ctrl+C to stop.
`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void rehearsal.close().then(() => process.exit(0));
  });
}
