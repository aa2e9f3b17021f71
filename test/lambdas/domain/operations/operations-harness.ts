import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { checkoutReservationId, holdId, sellHold } from '../../../../lambdas/domain/capacity/holds';
import { toOrderItem } from '../../../../lambdas/domain/checkout/paid-checkout';
import { type FulfilmentDeps, fulfilCheckout } from '../../../../lambdas/domain/fulfilment/fulfil-checkout';
import type { RequestWriterDeps } from '../../../../lambdas/domain/operations/request-actions';
import type { ShopStripeDeps } from '../../../../lambdas/domain/operations/shop-deps';
import { capacityStoreFromTable } from '../../../../lambdas/domain/storage/capacity-table';
import type { OrderItem } from '../../../../lambdas/domain/storage/order';
import { dispatchDayKey, dispatchSortKey } from '../../../../lambdas/domain/storage/orders-table';
import type { IsoDate } from '../../../../shared/dispatch';
import { quoteOrder } from '../../../../shared/pricing';
import type { SessionOptions } from '../../../support/checkout-sessions';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';
import type { StoredEmail } from '../../../support/stand-ins';

/** An order written straight to the table with the real mapping, at chosen moments and day. */
export interface SeededOrder {
  /** The Checkout Session id; its last 12 characters are the reference. */
  sessionId: string;
  paidAt: string;
  /** When it was recorded; `paidAt` by default. */
  createdAt?: string;
  dispatchDate: IsoDate;
  status?: 'paid' | 'dispatched' | 'refunded';
  /** `undefined` writes an order without one (`null` keeps the default `pi_<session>`). */
  paymentIntentId?: string | undefined | null;
  name?: string;
  email?: string;
  postcode?: string;
}

export interface OperationsHarness {
  shop: FulfilmentHarness;
  /** The operator's dependencies over the stand-ins and the simulator, on the harness's clock. */
  deps: ShopStripeDeps & RequestWriterDeps & FulfilmentDeps;
  /** Fixes the operator's clock (`deps.now`); `undefined` goes back to the real one. */
  setNow(instant: Date | undefined): void;
  seedOrder(order: SeededOrder): Promise<OrderItem>;
  /** A paid order made the real way: a session paid in the simulator, fulfilled by fulfilCheckout. */
  paidOrder(options?: SessionOptions): Promise<OrderItem>;
  /**
   * Runs `action` just before the next `command` of the code's DynamoDB client whose input matches
   * (once): another process's write landing between the code's read and its conditional update.
   */
  beforeCommand(command: string, matches: (input: unknown) => boolean, action: () => Promise<void>): void;
  /** Sets attributes of a stored item, as another process would. */
  setAttributes(pk: string, values: Record<string, unknown>): Promise<void>;
  /** Removes attributes of a stored item, as another process would. */
  removeAttributes(pk: string, names: readonly string[]): Promise<void>;
  /** The stored item of `pk`, as DynamoDB holds it. */
  item(pk: string): Promise<Record<string, unknown> | undefined>;
  emailsTo(address: string): Promise<StoredEmail[]>;
  close(): Promise<void>;
}

/** The real shop parts (dynalite, the SES stand-in, the Stripe simulator) for the operator's domain. */
export async function startOperationsHarness(): Promise<OperationsHarness> {
  const shop = await startFulfilmentHarness();
  let now: Date | undefined;
  const deps = { ...shop.deps, now: () => now ?? shop.deps.now() };
  return {
    shop,
    deps,
    setNow(instant) {
      now = instant;
    },
    async seedOrder(seed) {
      const paidAt = new Date(seed.paidAt);
      const recordedAt = new Date(seed.createdAt ?? seed.paidAt);
      const mapped = toOrderItem(
        {
          sessionId: seed.sessionId,
          paymentIntentId:
            seed.paymentIntentId === null ? `pi_${seed.sessionId.slice(3)}` : seed.paymentIntentId,
          livemode: false,
          quote: quoteOrder(3),
          currency: 'gbp',
          customer: {
            name: seed.name ?? 'Pat Pond',
            email: seed.email ?? 'pat.pond@example.com',
            phone: '07700 900123',
            address: '1 Reed Row\nBath',
            postcode: seed.postcode ?? 'BA1 1AA',
          },
          promisedDispatchDate: seed.dispatchDate,
          checkoutCreatedAt: paidAt,
        },
        { now: recordedAt, paidAt, cutoffHours: 36 },
      );
      const status = seed.status ?? 'paid';
      const order: OrderItem = {
        ...mapped,
        status,
        dispatchDate: seed.dispatchDate,
        confirmationEmailState: 'sent',
        merchantNoticeEmailState: 'sent',
        gsi1pk: dispatchDayKey(seed.dispatchDate),
        gsi1sk: dispatchSortKey(status, mapped.paidAt, mapped.reference),
      };
      // An order without a PaymentIntent has no such attribute at all.
      const item = Object.fromEntries(Object.entries(order).filter(([, value]) => value !== undefined));
      await shop.standIns.inspector.send(new PutCommand({ TableName: shop.standIns.tableName, Item: item }));
      return order;
    },
    async paidOrder(options) {
      const session = await shop.paidSession(options);
      const result = await fulfilCheckout(session.id, shop.deps);
      if (result.outcome !== 'fulfilled') throw new Error(`not fulfilled: ${result.outcome}`);
      const order = await shop.deps.orders.get(session.id);
      if (!order) throw new Error('no order');
      return order;
    },
    beforeCommand(command, matches, action) {
      const name = `before-command-${randomUUID()}`;
      let done = false;
      shop.clients.documentClient.middlewareStack.add(
        (next, context) => async (args) => {
          if (!done && context.commandName === command && matches(args.input)) {
            done = true;
            shop.clients.documentClient.middlewareStack.remove(name);
            await action();
          }
          return next(args);
        },
        { step: 'initialize', name },
      );
    },
    async setAttributes(pk, values) {
      const names = Object.keys(values);
      await shop.standIns.inspector.send(
        new UpdateCommand({
          TableName: shop.standIns.tableName,
          Key: { pk },
          UpdateExpression: `SET ${names.map((_, i) => `#a${i} = :v${i}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#a${i}`, name])),
          ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, values[name]])),
        }),
      );
    },
    async removeAttributes(pk, names) {
      await shop.standIns.inspector.send(
        new UpdateCommand({
          TableName: shop.standIns.tableName,
          Key: { pk },
          UpdateExpression: `REMOVE ${names.map((_, i) => `#a${i}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#a${i}`, name])),
        }),
      );
    },
    async item(pk) {
      const { Item } = await shop.standIns.inspector.send(
        new GetCommand({ TableName: shop.standIns.tableName, Key: { pk } }),
      );
      return Item;
    },
    async emailsTo(address) {
      return (await shop.standIns.emails()).filter((email) => email.destination.to.includes(address));
    },
    close: () => shop.close(),
  };
}

/**
 * A paid order of `bottles`, sold on its day before it is written, as fulfilment does (ADR 0023):
 * its capacity hold and the day its sale counts on are on the order.
 */
export async function seedSoldOrder(h: OperationsHarness, seed: SeededOrder & { bottles: 3 | 6 | 9 }) {
  const hold = holdId(checkoutReservationId(seed.sessionId.slice(-12), 1_970_000_000), seed.bottles);
  await sellHold(capacityStoreFromTable(h.deps.table), seed.dispatchDate, hold);
  const order = await h.seedOrder(seed);
  await h.setAttributes(order.pk, {
    bottles: seed.bottles,
    capacityHold: hold,
    capacityDate: seed.dispatchDate,
  });
  return { ...order, capacityHold: hold, capacityDate: seed.dispatchDate };
}
