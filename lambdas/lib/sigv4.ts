import { createHash, createHmac } from 'node:crypto';

/**
 * AWS Signature Version 4 for a request whose headers and body are known in full (the DynamoDB
 * JSON calls of dynamodb-http.ts), with node:crypto's synchronous HMAC and SHA-256. WebCrypto
 * (what aws4fetch signs with) queues each of its four digests on the thread pool: about 0.4 ms a
 * call here, and several ms at p99 on a busy machine, against microseconds for this.
 */

export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string | undefined;
}

export interface SignableRequest {
  method: string;
  /** The Host header as sent: the host name, with the port when it is not the scheme's default. */
  host: string;
  /** Path and query as sent; only `/`-style paths without a query are used here. */
  path: string;
  /** Header names in lower case; every one of them is signed, with `host` and `x-amz-date`. */
  headers: Readonly<Record<string, string>>;
  body: string;
}

const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();
const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * Signs requests for one service in one region with one set of credentials (a Lambda's own, for
 * its lifetime). The signing key is derived once per UTC day, not per request.
 */
export function createSigner(
  credentials: SigningCredentials,
  scope: { region: string; service: string },
): (request: SignableRequest, now?: Date) => Record<string, string> {
  let cached: { day: string; key: Buffer } | undefined;
  const signingKey = (day: string): Buffer => {
    if (cached?.day !== day) {
      const dateKey = hmac(`AWS4${credentials.secretAccessKey}`, day);
      cached = { day, key: hmac(hmac(hmac(dateKey, scope.region), scope.service), 'aws4_request') };
    }
    return cached.key;
  };

  return (request, now = new Date()) => {
    // 20261125T170102Z: the ISO instant without separators or milliseconds.
    const amzDate = now.toISOString().replace(/[:-]|\.\d{3}/g, '');
    const day = amzDate.slice(0, 8);
    const headers: Record<string, string> = {
      ...request.headers,
      host: request.host,
      'x-amz-date': amzDate,
      ...(credentials.sessionToken !== undefined && { 'x-amz-security-token': credentials.sessionToken }),
    };
    const names = Object.keys(headers).sort();
    const signedHeaders = names.join(';');
    const canonicalRequest = [
      request.method,
      request.path,
      '',
      ...names.map((name) => `${name}:${(headers[name] ?? '').trim().replace(/\s+/g, ' ')}`),
      '',
      signedHeaders,
      sha256Hex(request.body),
    ].join('\n');
    const credentialScope = `${day}/${scope.region}/${scope.service}/aws4_request`;
    const stringToSign = ['AWS4-HMAC-SHA256', amzDate, credentialScope, sha256Hex(canonicalRequest)].join(
      '\n',
    );
    const signature = createHmac('sha256', signingKey(day)).update(stringToSign, 'utf8').digest('hex');
    return {
      ...headers,
      authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${credentialScope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
    };
  };
}
