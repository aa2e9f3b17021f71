import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SendEmailCommand } from '@aws-sdk/client-ses';
import { clearStore } from 'aws-ses-v2-local/dist/store.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSesClient } from '../../lambdas/lib/ses-client';
import { startSesLocal } from '../../local/ses-local';
import { closeServer } from '../../local/stand-in-servers';
import { STAND_IN_REGION } from '../support/stand-ins';

// `npm start` restarted: the SES stand-in's inbox is kept in a file, so yesterday's emails are
// still listed. The package holds one inbox per process: each start here follows a clear, as a
// new process would begin with none.

const storeSchema = z.object({ emails: z.array(z.object({ messageId: z.string(), subject: z.string() })) });
let folder = '';
let file = '';
let logged: string[] = [];

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'ses-kept-'));
  file = join(folder, 'ses-inbox.json');
  logged = [];
  clearStore();
});

async function start(): Promise<{ server: Server; endpoint: string }> {
  const server = await startSesLocal({
    port: 0,
    host: '127.0.0.1',
    inboxFile: file,
    log: (l) => logged.push(l),
  });
  return { server, endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const inbox = async (endpoint: string) =>
  storeSchema.parse(await (await fetch(`${endpoint}/store`)).json()).emails;

describe('the SES stand-in with a kept inbox', () => {
  it('lists after a restart the emails sent before it', async () => {
    // Prepare: one email sent, then a stop and a fresh process's empty inbox.
    const before = await start();
    const ses = createSesClient({ region: STAND_IN_REGION, endpoint: before.endpoint });
    const sent = await ses.send(
      new SendEmailCommand({
        Source: 'orders@live-aquatics.test',
        Destination: { ToAddresses: ['zoe@example.com'] },
        Message: { Subject: { Data: 'Order ABC confirmed' }, Body: { Text: { Data: 'Hello' } } },
      }),
    );
    ses.destroy();
    await closeServer(before.server);
    clearStore();

    // Act
    const after = await start();
    const listed = await inbox(after.endpoint);
    await closeServer(after.server);

    // Assess
    expect(listed).toEqual([{ messageId: sent.MessageId, subject: 'Order ABC confirmed' }]);
    expect(logged).toContain(`SES stand-in: kept from ${file}: 1 emails.`);
  });

  it('a clear is kept too', async () => {
    writeFileSync(
      file,
      JSON.stringify([
        {
          messageId: 'kept-1',
          from: 'orders@live-aquatics.test',
          replyTo: [],
          destination: { to: ['zoe@example.com'], cc: [], bcc: [] },
          subject: 'Order ABC confirmed',
          body: { text: 'Hello' },
          attachments: [],
          at: 1_796_000_000,
        },
      ]),
    );
    const before = await start();
    expect(await inbox(before.endpoint)).toHaveLength(1);
    await fetch(`${before.endpoint}/clear-store`, { method: 'POST' });
    await closeServer(before.server);

    const after = await start();
    const listed = await inbox(after.endpoint);
    await closeServer(after.server);

    expect(listed).toEqual([]);
  });

  it('starts with an empty inbox on a file it cannot read, says so, and keeps the file aside', async () => {
    writeFileSync(file, '[{"messageId": "half');

    const { server, endpoint } = await start();
    const listed = await inbox(endpoint);
    await closeServer(server);

    expect(listed).toEqual([]);
    expect(logged.join('\n')).toMatch(
      /^SES stand-in: .*ses-inbox\.json could not be read \(.*\); kept aside as ses-inbox\.json\.corrupt-\S+, starting empty\.$/m,
    );
    expect(readdirSync(folder).filter((name) => name.startsWith('ses-inbox.json.corrupt-'))).toHaveLength(1);
  });
});
