import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { toOrderItem } from '../../lambdas/domain/checkout/paid-checkout';
import { fulfilCheckout } from '../../lambdas/domain/fulfilment/fulfil-checkout';
import type { OrderItem } from '../../lambdas/domain/storage/order';
import { runCli } from '../../ops/cli';
import { localTarget, type Target } from '../../ops/stack-target';
import { quoteOrder } from '../../shared/pricing';
import type { SessionOptions } from '../support/checkout-sessions';
import { type FulfilmentHarness, startFulfilmentHarness } from '../support/fulfilment-harness';
import { TEST_SHOP_ID } from '../support/shop';
import type { StoredEmail } from '../support/stand-ins';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

export interface OpsHarness {
  shop: FulfilmentHarness;
  /** The operator's clock; tests move it to a bank-holiday week. */
  setNow(instant: Date | undefined): void;
  /**
   * Runs `npm run orders -- <args>` against the stand-ins, in `cwd`; `env` adds to the stand-ins'
   * variables (ORDERS_STAGE), `targetFile` is where the target is remembered (none by default);
   * `onTarget` sees the command's target before it runs (to watch its Stripe client's requests).
   */
  orders(
    args: string[],
    options?: {
      cwd?: string;
      env?: Record<string, string>;
      targetFile?: string;
      onTarget?: (target: Target) => void;
    },
  ): Promise<CliRun>;
  /** A paid order made the real way: a session paid in the simulator, fulfilled by fulfilCheckout. */
  paidOrder(options?: SessionOptions): Promise<OrderItem>;
  /** An order written directly with the real mapping, for a given moment of payment. */
  orderPaidAt(now: Date, n: number, bottles?: 3 | 6 | 9): Promise<OrderItem>;
  emailsTo(address: string): Promise<StoredEmail[]>;
  close(): Promise<void>;
}

/** The CLI over the local stand-ins (dynalite, SES stand-in, Stripe simulator), on free ports. */
export async function startOpsHarness(): Promise<OpsHarness> {
  const shop = await startFulfilmentHarness();
  let now: Date | undefined;
  const env = {
    ORDERS_LOCAL_DYNAMODB_ENDPOINT: shop.standIns.dynamoEndpoint,
    ORDERS_LOCAL_SES_ENDPOINT: shop.standIns.sesEndpoint,
    ORDERS_LOCAL_STRIPE_API_BASE: shop.simulator.url,
    ORDERS_LOCAL_TABLE: shop.standIns.tableName,
    ORDERS_LOCAL_SITE_URL: 'http://shop.test',
    SELLER_NAME: 'Live Aquatics Ltd',
    SELLER_ADDRESS: '1 Pond Lane\nBristol BS1 4DJ',
    SELLER_EMAIL: 'hello@live-aquatics.test',
    MERCHANT_EMAIL: 'merchant@live-aquatics.test',
    SHOP_ID: TEST_SHOP_ID,
  };
  const clock = () => now ?? new Date();
  return {
    shop,
    setNow(instant) {
      now = instant;
    },
    async orders(args, options = {}) {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(
        [...args],
        {
          out: (l) => out.push(l),
          err: (l) => err.push(l),
          env: { ...env, ...options.env },
          now: clock,
          cwd: options.cwd ?? process.cwd(),
          targetFile: options.targetFile,
        },
        async (choice, io) => {
          if (choice.kind !== 'local') throw new Error('tests run the local stack only');
          const target = localTarget(io.env, io.now);
          options.onTarget?.(target);
          return target;
        },
      );
      return { code, out: out.join('\n'), err: err.join('\n') };
    },
    async paidOrder(options) {
      const session = await shop.paidSession(options);
      const result = await fulfilCheckout(session.id, shop.deps);
      if (result.outcome !== 'fulfilled') throw new Error(`not fulfilled: ${result.outcome}`);
      const order = await shop.deps.orders.get(session.id);
      if (!order) throw new Error('no order');
      return order;
    },
    async orderPaidAt(at, n, bottles = 3) {
      const quote = quoteOrder(bottles);
      const sessionId = `cs_test_seeded${at.getTime()}x${String(n).padStart(6, '0')}`;
      const order = toOrderItem(
        {
          sessionId,
          paymentIntentId: `pi_test_seeded${n}`,
          livemode: false,
          quote,
          currency: 'gbp',
          customer: {
            name: `Customer ${n}`,
            email: `customer${n}@example.com`,
            phone: '07700 900123',
            address: `${n} Pond Lane\nBristol`,
            postcode: 'BS1 4DJ',
          },
          promisedDispatchDate: undefined,
          checkoutCreatedAt: at,
        },
        { now: at, cutoffHours: 36 },
      );
      await shop.standIns.inspector.send(new PutCommand({ TableName: shop.standIns.tableName, Item: order }));
      return order;
    },
    async emailsTo(address) {
      return (await shop.standIns.emails()).filter((email) => email.destination.to.includes(address));
    },
    close: () => shop.close(),
  };
}
