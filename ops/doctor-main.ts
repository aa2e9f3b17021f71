import { fileURLToPath } from 'node:url';
import { runDoctor } from './doctor';
import { operatorDeps } from './operator-deps';

// As in main.ts: the SDK's Node-version notice would print above every answer on Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

// `npm run doctor -- --stage NAME [--region R]`: docs/deploy.md.
process.exitCode = await runDoctor(
  process.argv.slice(2),
  operatorDeps(fileURLToPath(new URL('..', import.meta.url))),
);
