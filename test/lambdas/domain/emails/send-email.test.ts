import { SESServiceException } from '@aws-sdk/client-ses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  classifySesRefusal,
  createSesEmailSender,
  EmailRefusedError,
  formatFromAddress,
  isSesAcceptableAddress,
  PermanentEmailRefusalError,
  UnsafeAddressError,
} from '../../../../lambdas/domain/emails/send-email';
import { createSesClient } from '../../../../lambdas/lib/ses-client';
import { InjectedAwsFault, injectAwsFault, recordInputs } from '../../../support/aws-faults';
import { STAND_IN_REGION, type StandIns, startStandIns } from '../../../support/stand-ins';

describe('createSesEmailSender', () => {
  let standIns: StandIns;

  beforeAll(async () => {
    standIns = await startStandIns();
  });
  afterAll(() => standIns.close());

  const content = { subject: 'Order\r\nBcc: victim@example.com', html: '<p>Hi</p>', text: 'Hi' };

  it('sends one message to one recipient, from our identity, with the configuration set and a one-line subject', async () => {
    // Prepare
    const ses = createSesClient({ region: STAND_IN_REGION, endpoint: standIns.sesEndpoint });
    const sent = recordInputs(ses, 'SendEmailCommand');
    const sender = createSesEmailSender(ses, {
      from: 'orders@live-aquatics.test',
      configurationSet: 'shop-events',
    });

    // Act
    const messageId = await sender.send({
      to: 'zoe@example.com',
      replyTo: 'hello@live-aquatics.test',
      content,
    });

    // Assess
    const stored = (await standIns.emails()).find((email) => email.messageId === messageId);
    expect(stored).toMatchObject({
      from: 'orders@live-aquatics.test',
      replyTo: ['hello@live-aquatics.test'],
      destination: { to: ['zoe@example.com'], cc: [], bcc: [] },
      subject: 'Order Bcc: victim@example.com',
      body: { html: '<p>Hi</p>', text: 'Hi' },
    });
    expect(sent).toEqual([
      expect.objectContaining({
        ConfigurationSetName: 'shop-events',
        Message: {
          Subject: { Data: 'Order Bcc: victim@example.com', Charset: 'UTF-8' },
          Body: { Html: { Data: '<p>Hi</p>', Charset: 'UTF-8' }, Text: { Data: 'Hi', Charset: 'UTF-8' } },
        },
      }),
    ]);
  });

  it("sends from the seller's name as well as the address, so the inbox shows who wrote", async () => {
    // Prepare
    const ses = createSesClient({ region: STAND_IN_REGION, endpoint: standIns.sesEndpoint });
    const sender = createSesEmailSender(ses, {
      from: 'orders@live-aquatics.test',
      fromName: 'Live Aquatics Ltd',
    });

    // Act
    const messageId = await sender.send({
      to: 'zoe@example.com',
      replyTo: 'hello@live-aquatics.test',
      content,
    });

    // Assess
    const stored = (await standIns.emails()).find((email) => email.messageId === messageId);
    expect(stored).toMatchObject({ from: '"Live Aquatics Ltd" <orders@live-aquatics.test>' });
  });

  it('leaves the configuration set out when none is configured', async () => {
    // Prepare
    const ses = createSesClient({ region: STAND_IN_REGION, endpoint: standIns.sesEndpoint });
    const sent = recordInputs(ses, 'SendEmailCommand');

    // Act
    await createSesEmailSender(ses, { from: 'orders@live-aquatics.test' }).send({
      to: 'zoe@example.com',
      replyTo: 'hello@live-aquatics.test',
      content,
    });

    // Assess
    expect(sent).toEqual([expect.not.objectContaining({ ConfigurationSetName: expect.anything() })]);
  });

  it.each(['a@example.com, b@example.com', 'a@example.com\r\nBcc: b@example.com', 'Zoë <a@example.com>'])(
    'refuses a recipient that is not one plain mailbox: %j',
    async (to) => {
      // Prepare
      const ses = createSesClient({ region: STAND_IN_REGION, endpoint: standIns.sesEndpoint });
      const before = (await standIns.emails()).length;

      // Act
      const sending = createSesEmailSender(ses, { from: 'orders@live-aquatics.test' }).send({
        to,
        replyTo: 'hello@live-aquatics.test',
        content,
      });

      // Assess
      await expect(sending).rejects.toBeInstanceOf(UnsafeAddressError);
      expect(await standIns.emails()).toHaveLength(before);
    },
  );

  it.each([
    'a@example.com, b@example.com',
    'hello@shop.test\r\nBcc: b@example.com',
    'Shop <hello@shop.test>',
  ])(
    'refuses a Reply-To that is not one plain mailbox, naming the refusal, without calling SES: %j',
    async (replyTo) => {
      // Prepare
      const ses = createSesClient({ region: STAND_IN_REGION, endpoint: standIns.sesEndpoint });
      const sent = recordInputs(ses, 'SendEmailCommand');

      // Act
      const sending = createSesEmailSender(ses, { from: 'orders@live-aquatics.test' }).send({
        to: 'zoe@example.com',
        replyTo,
        content,
      });

      // Assess
      await expect(sending).rejects.toMatchObject({
        name: 'UnsafeAddressError',
        message: 'Refusing to send to an address that is not a single plain mailbox',
      });
      expect(sent).toEqual([]);
    },
  );

  it('names a permanent refusal and its reason, as the order records it', async () => {
    // Prepare
    const ses = createSesClient({ region: STAND_IN_REGION, endpoint: standIns.sesEndpoint });

    // Act
    const sending = createSesEmailSender(ses, { from: 'orders@live-aquatics.test' }).send({
      to: 'zoë@example.com',
      content,
    });

    // Assess
    await expect(sending).rejects.toMatchObject({
      name: 'PermanentEmailRefusalError',
      message: 'SES cannot deliver to this recipient: address-not-ascii',
      reason: 'address-not-ascii',
    });
  });

  it('turns a passing SES error into EmailRefusedError with its name, status and request id, and no SES message text', async () => {
    // Prepare: SES throttles, as its own exception (a retry is worth it, so it is not permanent).
    const ses = createSesClient({ region: STAND_IN_REGION, endpoint: standIns.sesEndpoint });
    injectAwsFault(ses, {
      command: 'SendEmailCommand',
      when: 'before',
      error: () =>
        new SESServiceException({
          name: 'Throttling',
          $fault: 'client',
          message: 'Maximum sending rate exceeded for zoe@example.com',
          $metadata: { httpStatusCode: 400, requestId: 'req-7' },
        }),
    });

    // Act
    const error = await createSesEmailSender(ses, { from: 'orders@live-aquatics.test' })
      .send({ to: 'zoe@example.com', content })
      .catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(EmailRefusedError);
    expect(error).toMatchObject({
      name: 'EmailRefusedError',
      message: 'SES refused the message: Throttling',
      statusCode: 400,
      requestId: 'req-7',
    });
    expect(JSON.stringify(error)).not.toContain('zoe@example.com');
  });

  it('lets an error that is not from SES (the network, a timeout) through unchanged', async () => {
    // Prepare
    const ses = createSesClient({ region: STAND_IN_REGION, endpoint: standIns.sesEndpoint });
    injectAwsFault(ses, { command: 'SendEmailCommand', when: 'before' });

    // Act
    const sending = createSesEmailSender(ses, { from: 'orders@live-aquatics.test' }).send({
      to: 'zoe@example.com',
      content,
    });

    // Assess
    await expect(sending).rejects.toBeInstanceOf(InjectedAwsFault);
  });

  it('refuses a recipient SES cannot take as a permanent refusal, without calling SES', async () => {
    // Prepare
    const ses = createSesClient({ region: STAND_IN_REGION, endpoint: standIns.sesEndpoint });
    const sent = recordInputs(ses, 'SendEmailCommand');

    // Act
    const sending = createSesEmailSender(ses, { from: 'orders@live-aquatics.test' }).send({
      to: 'zoë@example.com',
      content,
    });

    // Assess
    await expect(sending).rejects.toEqual(new PermanentEmailRefusalError('address-not-ascii'));
    expect(sent).toEqual([]);
  });

  it('leaves Reply-To out when there is none', async () => {
    // Prepare
    const ses = createSesClient({ region: STAND_IN_REGION, endpoint: standIns.sesEndpoint });
    const sent = recordInputs(ses, 'SendEmailCommand');

    // Act
    const messageId = await createSesEmailSender(ses, { from: 'orders@live-aquatics.test' }).send({
      to: 'merchant@example.com',
      content,
    });

    // Assess
    expect(sent).toEqual([expect.not.objectContaining({ ReplyToAddresses: expect.anything() })]);
    expect((await standIns.emails()).find((email) => email.messageId === messageId)?.replyTo).toEqual([]);
  });
});

describe('isSesAcceptableAddress', () => {
  it.each(['zoe@example.com', 'a.b+c@xn--exmple-cua.com', "o'brien@example.co.uk"])('takes %j', (address) => {
    expect(isSesAcceptableAddress(address)).toBe(true);
  });
  it.each([
    'zoë@example.com',
    'zoe@exämple.com',
    'zoe@example.com\u200b',
    'a b@example.com',
    'a@b@example.com',
    'example.com',
    '@example.com',
    'zoe@',
  ])('refuses %j', (address) => {
    expect(isSesAcceptableAddress(address)).toBe(false);
  });
});

describe('classifySesRefusal', () => {
  const error = (name: string, message: string) =>
    new SESServiceException({ name, $fault: 'client', message, $metadata: { httpStatusCode: 400 } });
  const from = 'orders@live-aquatics.test';

  it.each<[string, string, string | undefined]>([
    ['InvalidParameterValue', 'Local address contains control or whitespace', 'InvalidParameterValue'],
    ['MessageRejected', 'Email address is not verified: zoe@example.com', 'MessageRejected'],
    ['MessageRejected', 'Email address is not verified: ORDERS@live-aquatics.test', undefined],
    ['Throttling', 'Maximum sending rate exceeded.', undefined],
    ['AccountSendingPausedException', 'Sending paused', undefined],
    ['MailFromDomainNotVerifiedException', 'Not verified', undefined],
    ['ConfigurationSetDoesNotExist', 'No such set', undefined],
  ])('%s (%s) → %s', (name, message, expected) => {
    expect(classifySesRefusal(error(name, message), from)).toBe(expected);
  });
});

describe('formatFromAddress', () => {
  it('quotes an ASCII display name, escaping quotes and backslashes', () => {
    expect(formatFromAddress('orders@shop.test', 'Pond "Life" \\ Co')).toBe(
      '"Pond \\"Life\\" \\\\ Co" <orders@shop.test>',
    );
  });

  it('encodes a non-ASCII name as an RFC 2047 word, and never lets a line break through', () => {
    expect(formatFromAddress('orders@shop.test', 'Zoë’s Daphnia')).toBe(
      '=?UTF-8?B?Wm/Dq+KAmXMgRGFwaG5pYQ==?= <orders@shop.test>',
    );
    expect(formatFromAddress('orders@shop.test', 'Shop\r\nBcc: x@y.z')).toBe(
      '"Shop Bcc: x@y.z" <orders@shop.test>',
    );
  });

  it('is the bare address without a name', () => {
    expect(formatFromAddress('orders@shop.test', undefined)).toBe('orders@shop.test');
    expect(formatFromAddress('orders@shop.test', '  ')).toBe('orders@shop.test');
  });
});
