import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import {
  ACTIVE_STANDING_ORDER_INDEX,
  CAPACITY_KEY_PREFIX,
  CHECKOUT_SESSION_KEY_PREFIX,
  CLIENT_HOLDS_KEY_PREFIX,
  DISPATCH_DATE_INDEX,
  FAILED_DEBIT_KEY_PREFIX,
  FAILED_RENEWAL_KEY_PREFIX,
  FORECAST_KEY_PREFIX,
  NOTICE_LIMIT_KEY_PREFIX,
  ORDER_KEY_PREFIX,
  ORDERS_TABLE_INDEXES,
  OUTBOX_DUE_INDEX,
  PARTITION_KEY,
  PENDING_DEBIT_KEY_PREFIX,
  PUSH_SUBSCRIPTIONS_KEY,
  REQUEST_KEY_PREFIX,
  SETTINGS_KEY,
  STANDING_ORDER_KEY_PREFIX,
  TTL_ATTRIBUTE,
  WEATHER_NOTICE_KEY_PREFIX,
} from '../../../lambdas/domain/storage/orders-table';

/**
 * The DynamoDB actions that fulfilment needs: read an order, create it with a conditional put, and
 * move it on with conditional updates. No transactions (the local stand-in has none), no scans.
 */
export const FULFILMENT_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
] as const;

/** Props of {@link OrdersTable}; there is nothing to choose, the key design is the domain's (orders-table.ts). */
export type OrdersTableProps = Record<string, never>;

/**
 * The orders table: one item per paid Checkout Session (`pk = ORDER#<session id>`), plus the
 * dispatch-day index. It holds the only record of what customers paid for, so it is protected
 * from every kind of loss the stack can cause: point-in-time recovery, deletion protection, and
 * kept when the stack is deleted or the table replaced. A first create that fails is rolled back
 * with nothing left over (RETAIN_ON_UPDATE_OR_DELETE), since no order can be in it yet.
 */
export class OrdersTable extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string, _props: OrdersTableProps = {}) {
    super(scope, id);

    this.table = new Table(this, 'Table', {
      partitionKey: { name: PARTITION_KEY, type: AttributeType.STRING },
      // On demand: a small shop has long idle stretches, and pays nothing for them.
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
      // Encrypted at rest with the AWS owned key: free, and no key policy for the functions to need.
      encryption: TableEncryption.DEFAULT,
      // Only requests mode's notice counters carry it (hourly, useless a day later); no order or
      // request ever does, so TTL never deletes one.
      timeToLiveAttribute: TTL_ATTRIBUTE,
    });

    // The indexes of the one design (storage/orders-table.ts), in its order: byDispatchDate, sorted by
    // status, time and reference; the reference index; the retired one, unread and kept until the
    // next release so that each deploy adds or deletes one index only; the sparse one of orders with
    // outbox entries unsent (added alone: CloudFormation adds one GSI per update).
    for (const index of ORDERS_TABLE_INDEXES) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        ...('sortKey' in index && { sortKey: { name: index.sortKey, type: AttributeType.STRING } }),
        projectionType: ProjectionType[index.projection],
      });
    }
  }

  /** Lets the reconciler scan the sparse index of orders with unsent outbox entries (keys only). */
  grantOutboxSweep(grantee: IGrantable): Grant {
    return Grant.addToPrincipal({
      grantee,
      actions: ['dynamodb:Scan'],
      resourceArns: [`${this.table.tableArn}/index/${OUTBOX_DUE_INDEX.name}`],
    });
  }

  /**
   * Lets the reconciler list the active standing orders (ADR 0060): a Scan of the sparse
   * KEYS_ONLY index only they are in; each record is then read by its key (grantFulfilment).
   */
  grantStandingOrdersScan(grantee: IGrantable): Grant {
    return Grant.addToPrincipal({
      grantee,
      actions: ['dynamodb:Scan'],
      resourceArns: [`${this.table.tableArn}/index/${ACTIVE_STANDING_ORDER_INDEX.name}`],
    });
  }

  /**
   * Lets the admin API list every standing order, cancelled ones too (ADR 0061): a Scan of the table
   * filtered on `STANDING_ORDER#` by the code. A Scan has no partition key to limit by
   * `dynamodb:LeadingKeys`; the admin reads every order already.
   */
  grantStandingOrdersTableScan(grantee: IGrantable): Grant {
    return Grant.addToPrincipal({ grantee, actions: ['dynamodb:Scan'], resourceArns: [this.table.tableArn] });
  }

  /** Lets a function do `actions` on the table's items whose partition key matches `keys`, and no others. */
  /** GetItem and UpdateItem (no put: nothing new is made) on the items whose key starts with `prefix`. */
  private grantReadUpdate(grantee: IGrantable, prefix: string): Grant {
    return this.grantOnKeys(grantee, ['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'ForAllValues:StringLike', [
      `${prefix}*`,
    ]);
  }

  private grantOnKeys(
    grantee: IGrantable,
    actions: string[],
    match: 'ForAllValues:StringLike' | 'ForAllValues:StringEquals',
    keys: string[],
  ): Grant {
    return Grant.addToPrincipal({
      grantee,
      actions,
      resourceArns: [this.table.tableArn],
      conditions: { [match]: { 'dynamodb:LeadingKeys': keys } },
    });
  }

  /**
   * Lets a function read the dispatch days' capacity counters (`pk = CAPACITY#…`) and nothing
   * else: shop-status, which tells the page the next day with room.
   */
  grantCapacityRead(grantee: IGrantable): Grant {
    return this.grantOnKeys(grantee, ['dynamodb:GetItem'], 'ForAllValues:StringLike', [
      `${CAPACITY_KEY_PREFIX}*`,
    ]);
  }

  /**
   * Lets a function count a client's open holds (`pk = CLIENT_HOLDS#…`, read then a versioned
   * update): create-checkout when it takes a hold, admin-api when it asks a request to pay.
   */
  grantClientHolds(grantee: IGrantable): Grant {
    return this.grantReadUpdate(grantee, CLIENT_HOLDS_KEY_PREFIX);
  }

  /**
   * Lets a function reserve, release, sell and give back bottles on the dispatch days
   * (`pk = CAPACITY#…`): conditional updates, and the read that tells a full day from a hold or
   * sale already made. create-checkout reserves; the webhook and the reconciler sell and release.
   */
  grantCapacityReservations(grantee: IGrantable): Grant {
    return this.grantReadUpdate(grantee, CAPACITY_KEY_PREFIX);
  }

  /**
   * Lets create-checkout make its transactions (ADR 0052): check the settings item inside them
   * (ConditionCheckItem on `SETTINGS#shop`, which reads nothing back) and record the sessions it
   * made (`pk = CHECKOUT_SESSION#…`, put only).
   */
  grantCheckoutTransactions(grantee: IGrantable): Grant {
    this.grantOnKeys(grantee, ['dynamodb:ConditionCheckItem'], 'ForAllValues:StringEquals', [SETTINGS_KEY]);
    return this.grantOnKeys(grantee, ['dynamodb:PutItem'], 'ForAllValues:StringLike', [
      `${CHECKOUT_SESSION_KEY_PREFIX}*`,
    ]);
  }

  /**
   * Lets a function read the shop's settings item (`pk = SETTINGS#shop`) and nothing else of the
   * table: `dynamodb:LeadingKeys` limits every key it may touch.
   */
  grantShopSettingsRead(grantee: IGrantable): Grant {
    return this.grantOnKeys(grantee, ['dynamodb:GetItem'], 'ForAllValues:StringEquals', [SETTINGS_KEY]);
  }

  /**
   * Lets the daily weather notice read a day's orders (the dispatch-date index), the thresholds
   * (the settings item), read and write the cached forecasts (`FORECAST#…`) and its own record
   * (`WEATHERNOTICE#…`, whose email it sends once): never an order's own item.
   */
  grantWeatherNotice(grantee: IGrantable): void {
    this.grantShopSettingsRead(grantee);
    this.grantOnKeys(
      grantee,
      ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
      'ForAllValues:StringLike',
      [`${FORECAST_KEY_PREFIX}*`, `${WEATHER_NOTICE_KEY_PREFIX}*`],
    );
    Grant.addToPrincipal({
      grantee,
      actions: ['dynamodb:Query'],
      resourceArns: [`${this.table.tableArn}/index/${DISPATCH_DATE_INDEX.name}`],
    });
  }

  /**
   * Lets create-checkout, in requests mode, record order requests (`pk = REQUEST#…`) with
   * conditional writes and move their email states, and count its notices to the merchant
   * (`pk = NOTICE_LIMIT#…`): those items only, never an order.
   */
  grantOrderRequestsWrite(grantee: IGrantable): Grant {
    return this.grantOnKeys(
      grantee,
      ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
      'ForAllValues:StringLike',
      [`${REQUEST_KEY_PREFIX}*`, `${NOTICE_LIMIT_KEY_PREFIX}*`],
    );
  }

  /**
   * Lets a function read the merchants' push subscriptions and remove one the push service calls
   * gone, or (the admin API) add one (`pk = PUSH_SUBSCRIPTIONS#shop`, ADR 0056): that item only.
   */
  grantPushSubscriptions(grantee: IGrantable): Grant {
    return this.grantOnKeys(
      grantee,
      ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
      'ForAllValues:StringEquals',
      [PUSH_SUBSCRIPTIONS_KEY],
    );
  }

  /**
   * Lets the order page's function read an order and update it (`pk = ORDER#…`: the customer's
   * correction, its history entry and its one email): no put, so it can never create an order,
   * and nothing else of the table.
   */
  grantOrderPage(grantee: IGrantable): Grant {
    return this.grantReadUpdate(grantee, ORDER_KEY_PREFIX);
  }

  /**
   * Lets the order page's function read and conditionally change a standing order
   * (`pk = STANDING_ORDER#…`): its page, its customer's changes and their emails (ADR 0059).
   */
  grantStandingOrderPage(grantee: IGrantable): Grant {
    return this.grantReadUpdate(grantee, STANDING_ORDER_KEY_PREFIX);
  }

  /**
   * Lets the order page's function read a delayed payment's records (`pk = PENDING_DEBIT#…`, whose
   * page key a waiting customer's link carries, and `FAILED_DEBIT#…`): GetItem only (ADR 0047).
   */
  grantDebitRecordsRead(grantee: IGrantable): Grant {
    return this.grantOnKeys(grantee, ['dynamodb:GetItem'], 'ForAllValues:StringLike', [
      `${PENDING_DEBIT_KEY_PREFIX}*`,
      `${FAILED_DEBIT_KEY_PREFIX}*`,
    ]);
  }

  /**
   * Lets the success page's lookup read an order's or a pending debit's page key (`pk = ORDER#…`,
   * `PENDING_DEBIT#…`) to answer its link: GetItem only, so it still cannot write (ADR 0047).
   */
  grantOrderPageLinkRead(grantee: IGrantable): Grant {
    return this.grantOnKeys(grantee, ['dynamodb:GetItem'], 'ForAllValues:StringLike', [
      `${ORDER_KEY_PREFIX}*`,
      `${PENDING_DEBIT_KEY_PREFIX}*`,
    ]);
  }

  /**
   * Lets a fulfilment function (webhook, reconciler) read and conditionally write orders
   * (`pk = ORDER#…`), failed Direct Debits' records (`pk = FAILED_DEBIT#…`, whose emails it
   * sends once) and pending ones' (`pk = PENDING_DEBIT#…`: the waiting email, the page key),
   * standing orders (`pk = STANDING_ORDER#…`) and failed renewals (`pk = FAILED_RENEWAL#…`, whose
   * emails it sends once, ADR 0058), and read the settings item, which flags an order paid while the shop was
   * paused. Nothing else: a compromised webhook can neither reopen a paused shop nor touch a
   * request. Scoped to the table itself, not its indexes: no function queries them, the merchant does.
   * Returns the grant on orders (the settings read is {@link grantShopSettingsRead}'s).
   */
  grantFulfilment(grantee: IGrantable): Grant {
    this.grantShopSettingsRead(grantee);
    return this.grantOnKeys(grantee, [...FULFILMENT_TABLE_ACTIONS], 'ForAllValues:StringLike', [
      `${ORDER_KEY_PREFIX}*`,
      `${FAILED_DEBIT_KEY_PREFIX}*`,
      `${PENDING_DEBIT_KEY_PREFIX}*`,
      `${STANDING_ORDER_KEY_PREFIX}*`,
      `${FAILED_RENEWAL_KEY_PREFIX}*`,
    ]);
  }
}
