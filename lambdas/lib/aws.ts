import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface AwsClientOptions {
  region: string;
  /** A local stand-in (dynalite, aws-ses-v2-local); absent means the real AWS endpoint. */
  endpoint?: string | undefined;
}

/** Local stand-ins need credentials to sign with and check none; used only with an endpoint set. */
const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

/** What a client needs for a local stand-in (its endpoint, the local credentials); nothing for AWS. */
export function endpointOptions(options: AwsClientOptions) {
  return options.endpoint ? { endpoint: options.endpoint, credentials: LOCAL_CREDENTIALS } : {};
}

/**
 * Per-attempt limits: a hung connection fails in seconds and is retried instead of waiting for the Lambda
 * timeout, so a live holder's email claim (storage/send-once.ts) never goes stale. `throwOnRequestTimeout`:
 * else only a warning.
 */
export const REQUEST_HANDLER = {
  connectionTimeout: 2_000,
  requestTimeout: 5_000,
  throwOnRequestTimeout: true,
} as const;

/** Built once per cold start; `removeUndefinedValues` lets optional fields be absent, not fail the write. */
export function createDocumentClient(options: AwsClientOptions): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    region: options.region,
    requestHandler: REQUEST_HANDLER,
    ...endpointOptions(options),
  });
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

/** The orders table (every record of the shop) from a function's parsed configuration. */
export function ordersTable(config: {
  AWS_REGION: string;
  DYNAMODB_ENDPOINT?: string | undefined;
  ORDERS_TABLE_NAME: string;
}) {
  return {
    client: createDocumentClient({ region: config.AWS_REGION, endpoint: config.DYNAMODB_ENDPOINT }),
    tableName: config.ORDERS_TABLE_NAME,
  };
}
