import * as z from 'zod/mini';

/** Where the AWS Parameters and Secrets Lambda Extension listens unless told otherwise. */
export const DEFAULT_EXTENSION_PORT = 2773;

/** How long a read may take: the extension answers from its cache, or after one Secrets Manager call. */
export const EXTENSION_TIMEOUT_MS = 5_000;

/** The secret could not be read: the caller fails closed (no Stripe client, 503 to the request). */
export class SecretUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'SecretUnavailableError';
  }
}

/** What the extension answers: Secrets Manager's GetSecretValue response, of which we need one field. */
const extensionAnswerSchema = z.object({ SecretString: z.string() });

export interface ExtensionOptions {
  /** The extension's port (PARAMETERS_SECRETS_EXTENSION_HTTP_PORT). @default 2773 */
  port?: number | undefined;
  /** Proves the caller runs in this sandbox; the Lambda runtime sets AWS_SESSION_TOKEN. */
  sessionToken?: string | undefined;
  timeoutMs?: number;
}

/**
 * Reads a secret through the Parameters and Secrets extension on localhost, so the function carries no AWS
 * SDK. Only during an invocation, not module init. Any failure throws {@link SecretUnavailableError}.
 */
export async function readSecretString(secretId: string, options: ExtensionOptions = {}): Promise<string> {
  const sessionToken = options.sessionToken ?? process.env.AWS_SESSION_TOKEN;
  if (!sessionToken) {
    throw new SecretUnavailableError(
      `${secretId}: AWS_SESSION_TOKEN is not set, so the secrets extension cannot be asked`,
    );
  }
  const port = options.port ?? DEFAULT_EXTENSION_PORT;
  const url = `http://localhost:${port}/secretsmanager/get?secretId=${encodeURIComponent(secretId)}`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { 'X-Aws-Parameters-Secrets-Token': sessionToken },
      signal: AbortSignal.timeout(options.timeoutMs ?? EXTENSION_TIMEOUT_MS),
    });
  } catch (cause) {
    throw new SecretUnavailableError(`${secretId}: the secrets extension on port ${port} did not answer`, {
      cause,
    });
  }
  if (!response.ok) {
    // The body may name the secret or the role; the status is enough to act on.
    await response.body?.cancel();
    throw new SecretUnavailableError(`${secretId}: the secrets extension answered ${response.status}`);
  }
  const parsed = extensionAnswerSchema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) {
    throw new SecretUnavailableError(`${secretId}: the secrets extension answered without a SecretString`);
  }
  return parsed.data.SecretString;
}
