import { type SESClient, SESServiceException, SendEmailCommand } from '@aws-sdk/client-ses';
import type { EmailContent } from './render';
import { singleLine } from './render';

/** One message to exactly one recipient: never a list, so no customer ever sees another's address. */
export interface OutgoingEmail {
  to: string;
  replyTo: string;
  content: EmailContent;
}

export interface EmailSender {
  /** Sends one message; resolves with the SES message id once SES has accepted it. */
  send(email: OutgoingEmail): Promise<string>;
}

export interface SesSenderOptions {
  /** SES_FROM_ADDRESS: a verified identity. */
  from: string;
  /** SES_CONFIGURATION_SET: bounce, complaint and delivery events, when configured. */
  configurationSet?: string | undefined;
}

/** A single mailbox: no list separators, no display-name brackets, no header-breaking characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const UNSAFE_ADDRESS = /[\u0000-\u001f\u007f,;<>\s]/;

export class UnsafeAddressError extends Error {
  constructor() {
    super('Refusing to send to an address that is not a single plain mailbox');
    this.name = 'UnsafeAddressError';
  }
}

/**
 * SES answered with an error. Its messages can name the recipient ("Email address is not verified.
 * The following identities failed the check in region …: customer@example.com", the SES sandbox),
 * so only the error's name, status and request id are kept: no message, no stack, no `cause`.
 */
export class EmailRefusedError extends Error {
  readonly statusCode: number | undefined;
  readonly requestId: string | undefined;

  constructor(error: SESServiceException) {
    super(`SES refused the message: ${error.name}`);
    this.name = 'EmailRefusedError';
    this.statusCode = error.$metadata.httpStatusCode;
    this.requestId = error.$metadata.requestId;
  }
}

/**
 * Sends through SES's v1 `SendEmail`: HTML and text parts in UTF-8, one recipient, the subject on
 * one line (again, whatever the template did), the configuration set when there is one.
 */
export function createSesEmailSender(ses: SESClient, options: SesSenderOptions): EmailSender {
  return {
    async send({ to, replyTo, content }) {
      if (UNSAFE_ADDRESS.test(to) || UNSAFE_ADDRESS.test(replyTo)) throw new UnsafeAddressError();
      const command = new SendEmailCommand({
        Source: options.from,
        Destination: { ToAddresses: [to] },
        ReplyToAddresses: [replyTo],
        Message: {
          Subject: { Data: singleLine(content.subject), Charset: 'UTF-8' },
          Body: {
            Html: { Data: content.html, Charset: 'UTF-8' },
            Text: { Data: content.text, Charset: 'UTF-8' },
          },
        },
        ...(options.configurationSet && { ConfigurationSetName: options.configurationSet }),
      });
      const result = await ses.send(command).catch((error: unknown) => {
        // What the logs may keep: see EmailRefusedError. Network errors and timeouts name no one.
        throw error instanceof SESServiceException ? new EmailRefusedError(error) : error;
      });
      // SES always answers with an id; an absent one must not make us send again.
      return result.MessageId ?? 'unknown';
    },
  };
}
