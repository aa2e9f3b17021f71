import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type SESClient, SESServiceException, SendEmailCommand } from '@aws-sdk/client-ses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSesClient } from '../../lambdas/lib/ses-client';
import { startSesLocal } from '../../local/ses-local';
import { STAND_IN_REGION } from '../support/stand-ins';

function send(ses: SESClient, to: string, replyTo = 'hello@live-aquatics.test') {
  return ses.send(
    new SendEmailCommand({
      Source: 'orders@live-aquatics.test',
      Destination: { ToAddresses: [to] },
      ReplyToAddresses: [replyTo],
      Message: { Subject: { Data: 'Order ABC' }, Body: { Text: { Data: 'Hello' } } },
    }),
  );
}

async function refusal(
  sending: Promise<unknown>,
): Promise<{ name: string; message: string; status?: number }> {
  const error: unknown = await sending.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof SESServiceException)) throw new Error(`expected an SES error, got ${String(error)}`);
  return { name: error.name, message: error.message, status: error.$metadata.httpStatusCode };
}

const storeSchema = z.object({ emails: z.array(z.object({ messageId: z.string() })) });

describe('the SES stand-in (local/ses-local.ts)', () => {
  let server: Server;
  let ses: SESClient;
  let endpoint: string;

  const stored = async () => storeSchema.parse(await (await fetch(`${endpoint}/store`)).json()).emails;

  beforeAll(async () => {
    server = await startSesLocal({ port: 0, host: '127.0.0.1' });
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    ses = createSesClient({ region: STAND_IN_REGION, endpoint });
  });
  afterAll(
    () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  );

  it('accepts a plain ASCII address and stores the message', async () => {
    // Act
    const result = await send(ses, 'zoe@example.com');

    // Assess
    const store = await stored();
    expect(store.map((email) => email.messageId)).toContain(result.MessageId);
  });

  it('refuses a non-ASCII local part as SES does: 400 InvalidParameterValue, nothing stored', async () => {
    // Prepare
    const before = (await stored()).length;

    // Act
    const error = await refusal(send(ses, 'zoë@example.com'));

    // Assess
    expect(error).toEqual({
      name: 'InvalidParameterValue',
      message: 'Local address contains control or whitespace',
      status: 400,
    });
    const after = (await stored()).length;
    expect(after).toBe(before);
  });

  it('refuses an IDN domain that is not in punycode, and a non-ASCII Reply-To', async () => {
    // Act
    const domain = await refusal(send(ses, 'zoe@exämple.com'));
    const replyTo = await refusal(send(ses, 'zoe@example.com', 'zoë@example.com'));

    // Assess
    expect(domain).toMatchObject({
      name: 'InvalidParameterValue',
      message: 'Domain contains illegal character',
    });
    expect(replyTo).toMatchObject({ name: 'InvalidParameterValue' });
  });

  it('accepts an IDN domain in punycode', async () => {
    // Act
    const result = await send(ses, 'zoe@xn--exmple-cua.com');

    // Assess
    expect(result.MessageId).toEqual(expect.any(String));
  });

  it('says which port is taken when it cannot listen, not a null dereference', async () => {
    // Prepare
    const port = (server.address() as AddressInfo).port;

    // Act
    const starting = startSesLocal({ port, host: '127.0.0.1' });

    // Assess
    await expect(starting).rejects.toThrow(`SES stand-in: port ${port} on 127.0.0.1 is already in use`);
  });
});
