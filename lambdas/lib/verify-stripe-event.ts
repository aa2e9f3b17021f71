import Stripe from 'stripe';
import * as z from 'zod/mini';

/** Stripe's own default: an event signed more than 5 minutes away from our clock is refused. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** Why a delivery was refused. The reason goes to the log; the caller only ever hears "400". */
export type VerificationFailure =
  | 'missing-signature'
  | 'bad-signature'
  | 'timestamp-in-future'
  | 'malformed-event'
  | 'livemode-mismatch';

/** A webhook delivery that cannot be trusted: answered 400, with no side effect at all. */
export class WebhookVerificationError extends Error {
  constructor(
    readonly reason: VerificationFailure,
    options?: { cause?: unknown },
  ) {
    super(`Webhook refused: ${reason}`, options);
    this.name = 'WebhookVerificationError';
  }
}

/** The envelope of a verified event: what the webhook relies on, parsed rather than cast. */
const eventSchema = z.object({
  id: z.string(),
  type: z.string(),
  livemode: z.boolean(),
  created: z.number().check(z.int()),
  data: z.object({ object: z.unknown() }),
});
export type VerifiedEvent = z.output<typeof eventSchema>;

/** The signing time as the SDK reads it (the last `t=`), so both checks see the same number. */
function signedAt(header: string): number | undefined {
  let timestamp: number | undefined;
  for (const part of header.split(',')) {
    const [key, value] = part.split('=');
    if (key === 't' && value !== undefined) timestamp = Number.parseInt(value, 10);
  }
  return timestamp !== undefined && Number.isFinite(timestamp) ? timestamp : undefined;
}

export interface VerifyOptions {
  secret: string;
  /** STRIPE_LIVEMODE: events of the other mode are refused. */
  livemode: boolean;
  now: Date;
}

/**
 * The signature over the raw bytes as received (never re-serialised), signed at most 300 s ago (the SDK's
 * check) and not in the future (which the SDK allows), in the deployment's mode. Pure apart from the HMAC.
 * @throws WebhookVerificationError for every way a delivery can fail.
 */
export function verifyStripeEvent(
  rawBody: Buffer,
  signatureHeader: string | undefined,
  options: VerifyOptions,
): VerifiedEvent {
  if (!signatureHeader) throw new WebhookVerificationError('missing-signature');
  let payload: unknown;
  try {
    payload = Stripe.webhooks.constructEvent(
      rawBody,
      signatureHeader,
      options.secret,
      SIGNATURE_TOLERANCE_SECONDS,
      undefined,
      options.now.getTime(),
    );
  } catch (cause) {
    // A signature mismatch, a stale timestamp, a header with no v1 signature, or a signed body
    // that is not JSON: all the same to the sender.
    throw new WebhookVerificationError('bad-signature', { cause });
  }
  const timestamp = signedAt(signatureHeader);
  if (timestamp === undefined || timestamp - options.now.getTime() / 1000 > SIGNATURE_TOLERANCE_SECONDS) {
    throw new WebhookVerificationError('timestamp-in-future');
  }
  const event = eventSchema.safeParse(payload);
  if (!event.success) throw new WebhookVerificationError('malformed-event', { cause: event.error });
  if (event.data.livemode !== options.livemode) throw new WebhookVerificationError('livemode-mismatch');
  return event.data;
}
