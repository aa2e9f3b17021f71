import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface AwsClientOptions {
  region: string;
  /** A local stand-in (dynalite, aws-ses-v2-local); absent means the real AWS endpoint. */
  endpoint?: string | undefined;
}

/**
 * Local stand-ins need some credentials to sign with; they check none. Only used when an endpoint
 * is set, so a deployed function never signs with anything but its role.
 */
const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

/** What a client needs for a local stand-in (its endpoint, the local credentials); nothing for AWS. */
export function endpointOptions(options: AwsClientOptions) {
  return options.endpoint ? { endpoint: options.endpoint, credentials: LOCAL_CREDENTIALS } : {};
}

/**
 * Per-attempt limits. Without them a hung connection waits for the Lambda timeout; with them a
 * call fails in seconds, the SDK retries, and an email claim (lambdas/domain/storage/send-once.ts) never outlives
 * its 2-minute staleness limit while its holder is still alive. `throwOnRequestTimeout`: newer
 * handlers only warn on a request timeout unless told to fail.
 */
export const REQUEST_HANDLER = {
  connectionTimeout: 2_000,
  requestTimeout: 5_000,
  throwOnRequestTimeout: true,
} as const;

/**
 * The DynamoDB document client, built once per cold start. `removeUndefinedValues` lets optional
 * fields be absent instead of failing the whole write.
 */
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
