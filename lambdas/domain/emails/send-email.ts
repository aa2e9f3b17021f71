import { type SESClient, SESServiceException, SendEmailCommand } from '@aws-sdk/client-ses';
import type { FulfilmentEnv } from '../../lib/config';
import type { SellerDetails } from './common';
import type { EmailContent } from './render';
import { singleLine } from './render';

/** One message to exactly one recipient: never a list, so no customer ever sees another's address. */
export interface OutgoingEmail {
  to: string;
  /** Left out when there is none SES would take: a bad Reply-To makes SES refuse the whole message. */
  replyTo?: string | undefined;
  content: EmailContent;
}

export interface EmailSender {
  /** Sends one message; resolves with the SES message id once SES has accepted it. */
  send(email: OutgoingEmail): Promise<string>;
}

export interface SesSenderOptions {
  /** SES_FROM_ADDRESS: a verified identity. */
  from: string;
  /** The display name shown beside it ("Live Aquatics Ltd"), so the mail is recognised in the inbox. */
  fromName?: string | undefined;
  /** SES_CONFIGURATION_SET: bounce, complaint and delivery events, when configured. */
  configurationSet?: string | undefined;
}

/** A single mailbox: no list separators, no display-name brackets, no header-breaking characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const UNSAFE_ADDRESS = /[\u0000-\u001f\u007f,;<>\s]/;

/** SES takes 7-bit printable ASCII only (no SMTPUTF8: `zoë@…`, a non-punycode IDN refused), one `@`. */
const SES_ACCEPTABLE_ADDRESS = /^[\x21-\x7e]+@[\x21-\x7e]+$/;

/** True when SES would accept `address` as a recipient or Reply-To (see SES_ACCEPTABLE_ADDRESS). */
export function isSesAcceptableAddress(address: string): boolean {
  return (
    SES_ACCEPTABLE_ADDRESS.test(address) && !UNSAFE_ADDRESS.test(address) && address.split('@').length === 2
  );
}

/**
 * Why a recipient can never receive a message, as stored on the order (`…EmailFailureReason`):
 * - `address-not-ascii`: refused before calling SES, which takes 7-bit ASCII addresses only;
 * - `InvalidParameterValue`: SES refused the address itself ("Local address contains control or
 *   whitespace", "Domain contains illegal character", "Missing final '@domain'");
 * - `MessageRejected`: SES refused the message for this recipient (in the SES sandbox: a recipient
 *   that is not verified).
 */
export type PermanentRefusalReason = 'address-not-ascii' | 'InvalidParameterValue' | 'MessageRejected';

/** Refused for good: the caller records it rather than retrying for ever. Keeps no SES message text. */
export class PermanentEmailRefusalError extends Error {
  constructor(readonly reason: PermanentRefusalReason) {
    super(`SES cannot deliver to this recipient: ${reason}`);
    this.name = 'PermanentEmailRefusalError';
  }
}

export class UnsafeAddressError extends Error {
  constructor() {
    super('Refusing to send to an address that is not a single plain mailbox');
    this.name = 'UnsafeAddressError';
  }
}

/**
 * SES's messages can name the recipient (the sandbox's "not verified … customer@example.com"), so only the
 * error's name, status and request id are kept: no message, no stack, no `cause`.
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
 * Which SES errors mean the recipient can never be reached, from the name and, for MessageRejected, whom the
 * message names (never logged). Everything else is retried: throttling, outages, and account problems the
 * operator fixes; a MessageRejected naming our own sending identity is one of those.
 */
export function classifySesRefusal(
  error: SESServiceException,
  from: string,
): PermanentRefusalReason | undefined {
  if (error.name === 'InvalidParameterValue') return 'InvalidParameterValue';
  if (error.name === 'MessageRejected' && !error.message.toLowerCase().includes(from.toLowerCase())) {
    return 'MessageRejected';
  }
  return undefined;
}

/**
 * `"Display Name" <address>`: printable ASCII quoted with `"` and `\` escaped, else an RFC 2047 encoded word
 * (UTF-8, base64) as SES needs; control characters never reach the header.
 */
export function formatFromAddress(address: string, name: string | undefined): string {
  const clean = name === undefined ? '' : singleLine(name);
  if (clean === '') return address;
  const display = /^[\x20-\x7e]*$/.test(clean)
    ? `"${clean.replace(/["\\]/g, '\\$&')}"`
    : `=?UTF-8?B?${Buffer.from(clean, 'utf8').toString('base64')}?=`;
  return `${display} <${address}>`;
}

/** SES v1 `SendEmail`: HTML and text in UTF-8, one recipient, the subject forced onto one line. */
export function createSesEmailSender(ses: SESClient, options: SesSenderOptions): EmailSender {
  return {
    async send({ to, replyTo, content }) {
      if (UNSAFE_ADDRESS.test(to) || (replyTo !== undefined && UNSAFE_ADDRESS.test(replyTo))) {
        throw new UnsafeAddressError();
      }
      // SES would refuse it with InvalidParameterValue; say so without the round trip.
      if (!isSesAcceptableAddress(to)) throw new PermanentEmailRefusalError('address-not-ascii');
      const command = new SendEmailCommand({
        Source: formatFromAddress(options.from, options.fromName),
        Destination: { ToAddresses: [to] },
        ...(replyTo !== undefined && { ReplyToAddresses: [replyTo] }),
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
        if (!(error instanceof SESServiceException)) throw error;
        const permanent = classifySesRefusal(error, options.from);
        throw permanent ? new PermanentEmailRefusalError(permanent) : new EmailRefusedError(error);
      });
      // SES always answers with an id; an absent one must not make us send again.
      return result.MessageId ?? 'unknown';
    },
  };
}

/** The shop's sender and seller from parsed configuration: every email from one address, in its name. */
export function shopEmailIdentity(
  ses: SESClient,
  config: Pick<
    FulfilmentEnv,
    | 'SES_FROM_ADDRESS'
    | 'SES_CONFIGURATION_SET'
    | 'SHOP_NAME'
    | 'SELLER_NAME'
    | 'SELLER_ADDRESS'
    | 'SELLER_EMAIL'
    | 'SELLER_COMPANY_NUMBER'
    | 'SELLER_VAT_NUMBER'
  >,
): { sender: EmailSender; seller: SellerDetails } {
  return {
    sender: createSesEmailSender(ses, {
      from: config.SES_FROM_ADDRESS,
      fromName: config.SELLER_NAME,
      configurationSet: config.SES_CONFIGURATION_SET,
    }),
    seller: {
      shopName: config.SHOP_NAME,
      name: config.SELLER_NAME,
      address: config.SELLER_ADDRESS,
      email: config.SELLER_EMAIL,
      companyNumber: config.SELLER_COMPANY_NUMBER,
      vatNumber: config.SELLER_VAT_NUMBER,
    },
  };
}
