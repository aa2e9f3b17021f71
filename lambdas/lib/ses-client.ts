import { SESClient } from '@aws-sdk/client-ses';
import { type AwsClientOptions, endpointOptions, REQUEST_HANDLER } from './aws';

// Apart from aws.ts so that create-checkout, which builds the document client at cold start, loads
// the SES client only with its requests-mode chunk (checkout-gate.ts).

/** The SES (v1 API) client, built once per cold start. */
export function createSesClient(options: AwsClientOptions): SESClient {
  return new SESClient({
    region: options.region,
    requestHandler: REQUEST_HANDLER,
    ...endpointOptions(options),
  });
}
