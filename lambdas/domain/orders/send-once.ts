import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { logger } from '../../lib/logger';
import type { EmailSender, OutgoingEmail } from '../emails/send-email';
import { conditionalWrite, type ShopTable } from './orders-table';

/**
 * A `sending` claim older than this belongs to a run that crashed and may be taken over: the same
 * two minutes as the order's own emails, far above one SES call with the clients' timeouts.
 */
const STALE_CLAIM_MS = 2 * 60_000;

/** The operator's emails; each is sent at most once per transition that asks for it. */
export const SHOP_EMAIL_KINDS = [
  'dispatch',
  'delay',
  'refund',
  'requestReceived',
  'requestNotice',
  'paymentInvitation',
  'decline',
] as const;
export type ShopEmailKind = (typeof SHOP_EMAIL_KINDS)[number];

/** Flat attribute names of one kind's state machine, as the order's own emails use them. */
export function shopEmailAttributes(kind: ShopEmailKind) {
  return {
    state: `${kind}EmailState`,
    claimedAt: `${kind}EmailClaimedAt`,
    claimToken: `${kind}EmailClaimToken`,
    sentAt: `${kind}EmailSentAt`,
    messageId: `${kind}EmailMessageId`,
  } as const;
}

/**
 * The update fragment a status transition adds so that its email becomes due: state `pending`,
 * any earlier claim and send of the same kind (an earlier delay) forgotten.
 */
export function emailDue(kind: ShopEmailKind): {
  set: string;
  remove: string;
  names: Record<string, string>;
} {
  const a = shopEmailAttributes(kind);
  const id = `${kind}Email`;
  return {
    set: `#${id}State = :pending`,
    remove: `#${id}ClaimedAt, #${id}ClaimToken, #${id}SentAt, #${id}MessageId`,
    names: {
      [`#${id}State`]: a.state,
      [`#${id}ClaimedAt`]: a.claimedAt,
      [`#${id}ClaimToken`]: a.claimToken,
      [`#${id}SentAt`]: a.sentAt,
      [`#${id}MessageId`]: a.messageId,
    },
  };
}

export interface SendOnceDeps {
  table: ShopTable;
  sender: EmailSender;
  now: () => Date;
}

/**
 * `not-sent`: nothing was due (no transition asked for this email, or it was sent already), or
 * another run holds a fresh claim on it. Either way this run sent nothing.
 */
export type SendOnceOutcome = 'sent' | 'not-sent';

/**
 * Sends one email of an item at most once, with the claim protocol of the order's own emails
 * (lambdas/domain/fulfilment/send-order-emails.ts, docs/decisions/0004): `pending` → `sending` (a claim
 * with a token, taken over only once stale) → `sent`. The state is set to `pending` by the
 * conditional update of the transition that makes the email due, so a second run of a command
 * finds it `sent` and sends nothing, and a run that crashed after the transition sends it on the
 * next run. The same accepted duplicate window as there: SES accepted, `sent` not recorded.
 */
export async function sendOnce(
  pk: string,
  kind: ShopEmailKind,
  message: () => OutgoingEmail,
  deps: SendOnceDeps,
): Promise<SendOnceOutcome> {
  const a = shopEmailAttributes(kind);
  const token = randomUUID();
  const claimedAt = deps.now();
  const update = (input: {
    condition: string;
    expression: string;
    names: Record<string, string>;
    values: Record<string, unknown>;
  }) =>
    conditionalWrite(() =>
      deps.table.client.send(
        new UpdateCommand({
          TableName: deps.table.tableName,
          Key: { pk },
          ConditionExpression: input.condition,
          UpdateExpression: input.expression,
          ExpressionAttributeNames: input.names,
          ExpressionAttributeValues: input.values,
        }),
      ),
    );

  const claimed = await update({
    // ISO instants in UTC compare correctly as strings.
    condition: '#state = :pending OR (#state = :sending AND #claimedAt < :staleBefore)',
    expression: 'SET #state = :sending, #claimedAt = :now, #token = :token',
    names: { '#state': a.state, '#claimedAt': a.claimedAt, '#token': a.claimToken },
    values: {
      ':pending': 'pending',
      ':sending': 'sending',
      ':staleBefore': new Date(claimedAt.getTime() - STALE_CLAIM_MS).toISOString(),
      ':now': claimedAt.toISOString(),
      ':token': token,
    },
  });
  if (!claimed) return 'not-sent';

  let messageId: string;
  try {
    messageId = await deps.sender.send(message());
  } catch (error) {
    // Hand the claim back so the next run need not wait for it to go stale.
    await update({
      condition: '#state = :sending AND #token = :token',
      expression: 'SET #state = :pending REMOVE #token, #claimedAt',
      names: { '#state': a.state, '#token': a.claimToken, '#claimedAt': a.claimedAt },
      values: { ':sending': 'sending', ':pending': 'pending', ':token': token },
    }).catch(() => false);
    throw error;
  }
  const marked = await update({
    condition: '#state = :sending AND #token = :token',
    expression: 'SET #state = :sent, #sentAt = :now, #messageId = :messageId REMOVE #token',
    names: { '#state': a.state, '#token': a.claimToken, '#sentAt': a.sentAt, '#messageId': a.messageId },
    values: {
      ':sending': 'sending',
      ':sent': 'sent',
      ':token': token,
      ':now': deps.now().toISOString(),
      ':messageId': messageId,
    },
  });
  if (!marked) logger.warn('Email sent, but its claim had been taken over as stale', { pk, kind, messageId });
  return 'sent';
}
