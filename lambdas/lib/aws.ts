import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SESClient } from '@aws-sdk/client-ses';

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

function endpointOptions(options: AwsClientOptions) {
  return options.endpoint ? { endpoint: options.endpoint, credentials: LOCAL_CREDENTIALS } : {};
}

/**
 * The DynamoDB document client, built once per cold start. `removeUndefinedValues` lets optional
 * fields be absent instead of failing the whole write.
 */
export function createDocumentClient(options: AwsClientOptions): DynamoDBDocumentClient {
  const client = new DynamoDBClient({ region: options.region, ...endpointOptions(options) });
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

/** The SES (v1 API) client, built once per cold start. */
export function createSesClient(options: AwsClientOptions): SESClient {
  return new SESClient({ region: options.region, ...endpointOptions(options) });
}
