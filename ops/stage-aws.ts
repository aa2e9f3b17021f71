import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { SESClient } from '@aws-sdk/client-ses';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SNSClient } from '@aws-sdk/client-sns';
import { STSClient } from '@aws-sdk/client-sts';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../lambdas/lib/aws';
import { RefusedError } from '../shared/refusal';

/** Built once per run for the stage's region; CloudFormation per region (the WAF stack's us-east-1). */
export interface StageAwsClients {
  sts: STSClient;
  cloudFormation: (region: string) => CloudFormationClient;
  secretsManager: SecretsManagerClient;
  /** SES v1: identity verification and DKIM tokens. */
  ses: SESClient;
  /** SES v2: the account's sandbox state (GetAccount), which v1 has no call for. */
  sesv2: SESv2Client;
  sns: SNSClient;
  cognito: CognitoIdentityProviderClient;
  /** The stage's table: setup keeps the shop paused there until its emails can go out. */
  dynamo: DynamoDBDocumentClient;
}

export function createStageAwsClients(region: string): StageAwsClients {
  const cloudFormation = new Map<string, CloudFormationClient>();
  return {
    sts: new STSClient({ region }),
    cloudFormation: (at) => {
      const client = cloudFormation.get(at) ?? new CloudFormationClient({ region: at });
      cloudFormation.set(at, client);
      return client;
    },
    secretsManager: new SecretsManagerClient({ region }),
    ses: new SESClient({ region }),
    sesv2: new SESv2Client({ region }),
    sns: new SNSClient({ region }),
    cognito: new CognitoIdentityProviderClient({ region }),
    dynamo: createDocumentClient({ region }),
  };
}

/** The app stack of a stage, as infra names it; the data and edge stacks add -Data and -Edge. */
export function stackName(stage: string): string {
  return `LiveAquatics-${stage}`;
}

/** Undefined when there is no such stack (CloudFormation's ValidationError "… does not exist"). */
export async function readStackOutputs(
  cloudFormation: CloudFormationClient,
  stackName: string,
): Promise<Map<string, string> | undefined> {
  try {
    const { Stacks = [] } = await cloudFormation.send(new DescribeStacksCommand({ StackName: stackName }));
    const stack = Stacks[0];
    if (stack === undefined) return undefined;
    const outputs = new Map<string, string>();
    for (const { OutputKey, OutputValue } of stack.Outputs ?? []) {
      if (OutputKey && OutputValue) outputs.set(OutputKey, OutputValue);
    }
    return outputs;
  } catch (error) {
    if (error instanceof Error && error.name === 'ValidationError' && /does not exist/.test(error.message))
      return undefined;
    throw error;
  }
}

export async function readStageOutputs(
  cloudFormation: CloudFormationClient,
  stage: string,
): Promise<{ get(key: string): string } | undefined> {
  const [app, data] = await Promise.all([
    readStackOutputs(cloudFormation, stackName(stage)),
    readStackOutputs(cloudFormation, `${stackName(stage)}-Data`),
  ]);
  if (app === undefined || data === undefined) return undefined;
  return {
    get(key) {
      const value = app.get(key) ?? data.get(key);
      if (value === undefined)
        throw new RefusedError(
          `The stacks of stage ${stage} have no output ${key}: deploy the current version (npm run setup -- --stage ${stage}).`,
        );
      return value;
    },
  };
}

/** A secret's JSON document, or undefined when it holds none (CloudFormation's random placeholder). */
export async function readSecretDocument(
  secretsManager: SecretsManagerClient,
  secretId: string,
): Promise<Record<string, unknown> | undefined> {
  const { SecretString } = await secretsManager.send(new GetSecretValueCommand({ SecretId: secretId }));
  try {
    const parsed: unknown = JSON.parse(SecretString ?? '');
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Written only when it differs: a new version every run would make the functions' cached copies look stale. */
export async function putSecretDocumentIfChanged(
  secretsManager: SecretsManagerClient,
  secretId: string,
  document: Readonly<Record<string, string>>,
): Promise<boolean> {
  const current = await readSecretDocument(secretsManager, secretId);
  const same =
    current !== undefined &&
    Object.keys(current).length === Object.keys(document).length &&
    Object.entries(document).every(([key, value]) => current[key] === value);
  if (same) return false;
  await secretsManager.send(
    new PutSecretValueCommand({ SecretId: secretId, SecretString: JSON.stringify(document) }),
  );
  return true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A refusal (or parseArgs's TypeError) as written; anything else with its type, as AWS and Stripe word it. */
export function operatorMessage(error: unknown): string {
  if (error instanceof RefusedError || (error instanceof TypeError && 'code' in error)) return error.message;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
