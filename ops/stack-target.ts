import { fileURLToPath } from 'node:url';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { RefusedError } from '../shared/refusal';
import { APP_OUTPUT_KEYS } from '../shared/stack-outputs';
import { STAGE_NAME_PATTERN } from '../shared/stage-config';
import type { ApiTarget } from './sign-in';
import { readSignIn } from './sign-in-store';
import { readStackOutputs as describeStackOutputs, stackName } from './stage-aws';
import { readStageBlock, stageRegion } from './stage-file';
import type { TargetChoice } from './target-choice';

/** `npm start`'s shop (local/dev-server.ts). */
const LOCAL_SITE_URL = 'http://localhost:3000';

type Env = Readonly<Record<string, string | undefined>>;

/** Only the first login may read the stage's stack (operator's credentials), unless the site is named. */
export function apiTarget(
  choice: TargetChoice,
  env: Env,
  cdkJson = fileURLToPath(new URL('../cdk.json', import.meta.url)),
): ApiTarget {
  if (choice.kind === 'local') {
    const given = env.ORDERS_LOCAL_URL?.trim();
    const site = given || LOCAL_SITE_URL;
    return {
      key: 'local',
      description: `local stack (${site})`,
      loginCommand: 'login --local',
      findSite: async () => site,
      namedSite: { url: site, by: given ? 'ORDERS_LOCAL_URL' : 'the local target' },
    };
  }
  const key = `stage-${choice.stage}`;
  const kept = readSignIn(env, key)?.siteUrl;
  const givenSite = env.ORDERS_SITE_URL?.trim();
  return {
    key,
    description: `stage ${choice.stage}${kept ? ` (${kept})` : ''}`,
    loginCommand: `login --stage ${choice.stage}`,
    // The stage's own sign-in file names its site; only ORDERS_SITE_URL can name another.
    ...(givenSite && { namedSite: { url: givenSite, by: 'ORDERS_SITE_URL' } }),
    async findSite() {
      if (givenSite) return givenSite;
      const domain = readDomainName(cdkJson, choice.stage);
      if (domain !== undefined) return `https://${domain}`;
      const outputs = await readStackOutputs(choice);
      return outputs.output(APP_OUTPUT_KEYS.siteUrl);
    },
  };
}

function readDomainName(cdkJson: string, stage: string): string | undefined {
  try {
    const domain = readStageBlock(cdkJson, stage)?.domainName;
    return typeof domain === 'string' && domain !== '' ? domain : undefined;
  } catch {
    return undefined;
  }
}

function explainAwsError(error: unknown, stack: string, region: string): never {
  const name = error instanceof Error ? error.name : '';
  if (
    name === 'CredentialsProviderError' ||
    /credential/i.test(error instanceof Error ? error.message : '')
  ) {
    throw new RefusedError(
      'No AWS credentials found. Sign in first (for example `aws sso login --profile shop` and `export AWS_PROFILE=shop`), then run the command again.',
      { cause: error },
    );
  }
  if (name === 'ValidationError') {
    throw new RefusedError(
      `No stack ${stack} in ${region} for these credentials: check --stage (and AWS_REGION / --region).`,
      { cause: error },
    );
  }
  if (name === 'AccessDeniedException' || name === 'AccessDenied') {
    throw new RefusedError(
      `Your AWS credentials may not read ${stack}: ${error instanceof Error ? error.message : ''}`,
      { cause: error },
    );
  }
  throw error;
}

export interface StackOutputs {
  stack: string;
  region: string;
  /** The output's value; refuses when the stack has none (deployed before it existed). */
  output(key: string): string;
}

export async function readStackOutputs(options: {
  stage: string;
  region: string | undefined;
}): Promise<StackOutputs> {
  if (!STAGE_NAME_PATTERN.test(options.stage))
    throw new RefusedError(`"${options.stage}" is not a stage name (for example dev or prod).`);
  const region = stageRegion(process.env, options.region);
  const stack = stackName(options.stage);
  const cloudFormation = new CloudFormationClient({ region });
  let found: Map<string, string> | undefined;
  try {
    found = await describeStackOutputs(cloudFormation, stack);
  } catch (error) {
    explainAwsError(error, stack, region);
  } finally {
    cloudFormation.destroy();
  }
  if (found === undefined) {
    throw new RefusedError(
      `No stack ${stack} in ${region} for these credentials: check --stage (and AWS_REGION / --region).`,
    );
  }
  const outputs = found;
  return {
    stack,
    region,
    output(key) {
      const value = outputs.get(key);
      if (!value)
        throw new RefusedError(`Stack ${stack} has no output ${key}: deploy the current version first.`);
      return value;
    },
  };
}
