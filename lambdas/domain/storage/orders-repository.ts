import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { PaymentEmailKind } from '../../../shared/email-kinds';
import { ENGLISH_MESSAGES } from '../../lib/zod-messages';
import { putIfAbsent } from './conditional-writes';
import { type OrderItem, orderItemSchema } from './order';
import { itemKey, orderKey } from './orders-table';
import { type EmailClaimStore, emailClaimStore } from './send-once';

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
 * Conditional writes only: one item per session is all exactly-once needs (and dynalite has no transactions).
 * Email claims by the order's session id (send-once.ts).
 */
export interface OrdersRepository extends EmailClaimStore<string, PaymentEmailKind> {
  /** The order of a session, read strongly consistent so a just-written order is never missed. */
  get(sessionId: string): Promise<OrderItem | undefined>;
  /** Writes the order only if none exists for its session; `false` when one already did. */
  createIfAbsent(order: OrderItem): Promise<boolean>;
}

/** The orders repository over the DynamoDB document client. */
export function createOrdersRepository(client: DynamoDBDocumentClient, tableName: string): OrdersRepository {
  const table = { client, tableName };
  const claims = emailClaimStore(table);

  return {
    async get(sessionId) {
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: itemKey(orderKey(sessionId)), ConsistentRead: true }),
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

    createIfAbsent: (order) => putIfAbsent(table, order),
    claimEmail: (sessionId, ...claim) => claims.claimEmail(orderKey(sessionId), ...claim),
    markEmailSent: (sessionId, ...mark) => claims.markEmailSent(orderKey(sessionId), ...mark),
    markEmailFailed: (sessionId, ...mark) => claims.markEmailFailed(orderKey(sessionId), ...mark),
    releaseEmail: (sessionId, ...release) => claims.releaseEmail(orderKey(sessionId), ...release),
  };
}
