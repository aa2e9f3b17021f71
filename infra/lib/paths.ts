import { fileURLToPath } from 'node:url';

/**
 * The repository root, found from this file's location rather than the working directory, so the
 * CDK app, `cdk synth` and the tests all resolve Lambda entries and the web build the same way.
 */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
