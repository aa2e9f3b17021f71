import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { ENGLISH_MESSAGES } from '../../lib/zod-messages';
import { type EmailKind, emailAttributes, type OrderItem, orderItemSchema, orderKey } from './order';

/** An order item in the table does not have the shape we write: a bug or a manual edit. */
export class CorruptOrderError extends Error {
  constructor(
    readonly sessionId: string,
    readonly problems: string[],
  ) {
    super(`Order ${sessionId} in the table is not a valid order item: ${problems.join('; ')}`);
    this.name = 'CorruptOrderError';
  }
}

/**
 * The orders table, with conditional writes only (no transactions: dynalite has none, and a
 * conditional write on the one item per session is all exactly-once needs).
 */
export interface OrdersRepository {
  /** The order of a session, read strongly consistent so a just-written order is never missed. */
  get(sessionId: string): Promise<OrderItem | undefined>;
  /** Writes the order only if none exists for its session; `false` when one already did. */
  createIfAbsent(order: OrderItem): Promise<boolean>;
  /**
   * Moves one email kind from `pending` (or from a `sending` claim older than `staleBefore`) to
   * `sending` with this `token`. `false` when another attempt holds a fresh claim or it was sent.
   */
  claimEmail(
    sessionId: string,
    kind: EmailKind,
    token: string,
    now: Date,
    staleBefore: Date,
  ): Promise<boolean>;
  /** `sending` with our token → `sent`. `false` when our claim was taken over meanwhile. */
  markEmailSent(
    sessionId: string,
    kind: EmailKind,
    token: string,
    messageId: string,
    now: Date,
  ): Promise<boolean>;
  /**
   * `sending` with our token → `failed` (final), when SES refused the recipient for good: no retry
   * can deliver it. `false` when our claim was taken over meanwhile.
   */
  markEmailFailed(
    sessionId: string,
    kind: EmailKind,
    token: string,
    reason: string,
    now: Date,
  ): Promise<boolean>;
  /** `sending` with our token → `pending`, after a transient failure, so a retry need not wait. */
  releaseEmail(sessionId: string, kind: EmailKind, token: string): Promise<void>;
}

async function conditional(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    // By name as well: a second copy of the SDK in a bundle would make instanceof miss it.
    if (
      error instanceof ConditionalCheckFailedException ||
      (error instanceof Error && error.name === 'ConditionalCheckFailedException')
    )
      return false;
    throw error;
  }
}

/** The orders repository over the DynamoDB document client. */
export function createOrdersRepository(client: DynamoDBDocumentClient, tableName: string): OrdersRepository {
  /** A conditional update of one session's order: `false` when its condition did not hold. */
  const updateOrder = (sessionId: string, update: Omit<UpdateCommandInput, 'TableName' | 'Key'>) =>
    conditional(() =>
      client.send(new UpdateCommand({ TableName: tableName, Key: { pk: orderKey(sessionId) }, ...update })),
    );

  return {
    async get(sessionId) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: { pk: orderKey(sessionId) }, ConsistentRead: true }),
      );
      if (Item === undefined) return undefined;
      const parsed = orderItemSchema.safeParse(Item, ENGLISH_MESSAGES);
      if (!parsed.success) {
        throw new CorruptOrderError(
          sessionId,
          parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
        );
      }
      return parsed.data;
    },

    createIfAbsent(order) {
      return conditional(() =>
        client.send(
          new PutCommand({
            TableName: tableName,
            Item: order,
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        ),
      );
    },

    claimEmail(sessionId, kind, token, now, staleBefore) {
      const a = emailAttributes(kind);
      return updateOrder(sessionId, {
        // ISO instants in UTC compare correctly as strings.
        ConditionExpression:
          'attribute_exists(pk) AND (#state = :pending OR (#state = :sending AND #claimedAt < :staleBefore))',
        UpdateExpression: 'SET #state = :sending, #claimedAt = :now, #token = :token',
        ExpressionAttributeNames: {
          '#state': a.state,
          '#claimedAt': a.claimedAt,
          '#token': a.claimToken,
        },
        ExpressionAttributeValues: {
          ':pending': 'pending',
          ':sending': 'sending',
          ':staleBefore': staleBefore.toISOString(),
          ':now': now.toISOString(),
          ':token': token,
        },
      });
    },

    markEmailSent(sessionId, kind, token, messageId, now) {
      const a = emailAttributes(kind);
      return updateOrder(sessionId, {
        ConditionExpression: '#state = :sending AND #token = :token',
        UpdateExpression: 'SET #state = :sent, #sentAt = :now, #messageId = :messageId REMOVE #token',
        ExpressionAttributeNames: {
          '#state': a.state,
          '#token': a.claimToken,
          '#sentAt': a.sentAt,
          '#messageId': a.messageId,
        },
        ExpressionAttributeValues: {
          ':sending': 'sending',
          ':sent': 'sent',
          ':token': token,
          ':now': now.toISOString(),
          ':messageId': messageId,
        },
      });
    },

    markEmailFailed(sessionId, kind, token, reason, now) {
      const a = emailAttributes(kind);
      return updateOrder(sessionId, {
        ConditionExpression: '#state = :sending AND #token = :token',
        UpdateExpression: 'SET #state = :failed, #failedAt = :now, #reason = :reason REMOVE #token',
        ExpressionAttributeNames: {
          '#state': a.state,
          '#token': a.claimToken,
          '#failedAt': a.failedAt,
          '#reason': a.failureReason,
        },
        ExpressionAttributeValues: {
          ':sending': 'sending',
          ':failed': 'failed',
          ':token': token,
          ':now': now.toISOString(),
          ':reason': reason,
        },
      });
    },

    async releaseEmail(sessionId, kind, token) {
      const a = emailAttributes(kind);
      await updateOrder(sessionId, {
        ConditionExpression: '#state = :sending AND #token = :token',
        UpdateExpression: 'SET #state = :pending REMOVE #token, #claimedAt',
        ExpressionAttributeNames: {
          '#state': a.state,
          '#token': a.claimToken,
          '#claimedAt': a.claimedAt,
        },
        ExpressionAttributeValues: { ':sending': 'sending', ':pending': 'pending', ':token': token },
      });
    },
  };
}
