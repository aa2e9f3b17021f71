import { spawn } from 'node:child_process';
import { stdin, stdout } from 'node:process';
import { createInterface } from 'node:readline/promises';
import { fileURLToPath } from 'node:url';
import Stripe from 'stripe';
import { HANDLED_WEBHOOK_EVENTS } from '../lambdas/domain/fulfilment/webhook-events';
import { createStripeClient } from '../lambdas/lib/stripe';
import { type Prompter, runSetup } from './setup';
import { createStageAwsClients } from './stage-aws';

// As in main.ts: the SDK's Node-version notice would print above every answer on Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Questions on the terminal; a secret's answer is not echoed. */
const prompt: Prompter = async (question, { default: fallback, secret = false }) => {
  let muted = false;
  const lines = createInterface({ input: stdin, output: stdout, terminal: true });
  // readline echoes what is typed through this; while a secret is typed, nothing is written.
  const echo = Reflect.get(lines, '_writeToOutput');
  Reflect.set(lines, '_writeToOutput', (text: string) => {
    if (!muted && typeof echo === 'function') Reflect.apply(echo, lines, [text]);
  });
  try {
    const shown = fallback === undefined ? '' : secret ? ' [keep the current one]' : ` [${fallback}]`;
    const answer = lines.question(`${question}${shown}: `);
    muted = secret;
    return await answer;
  } finally {
    if (secret) stdout.write('\n');
    lines.close();
  }
};

// `npm run setup -- --stage NAME [--yes] [flags]`: docs/deploy.md.
process.exitCode = await runSetup(process.argv.slice(2), {
  out: (line) => stdout.write(`${line}\n`),
  env: process.env,
  nodeVersion: process.versions.node,
  aws: createStageAwsClients,
  stripe: (key) => createStripeClient(key),
  fetch,
  now: () => new Date(),
  checkoutOrigin: 'https://checkout.stripe.com',
  events: HANDLED_WEBHOOK_EVENTS,
  apiVersion: Stripe.API_VERSION,
  cdkJsonPath: `${repoRoot}cdk.json`,
  prompt: stdin.isTTY ? prompt : undefined,
  runCdk: (args) =>
    new Promise((resolve, reject) => {
      const child = spawn('npx', ['cdk', ...args], {
        cwd: repoRoot,
        stdio: 'inherit',
        env: { ...process.env, CDK_DISABLE_VERSION_CHECK: '1', CDK_DISABLE_CLI_TELEMETRY: 'true' },
      });
      child.on('error', reject);
      child.on('exit', (code) => resolve(code ?? 1));
    }),
});
