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

/** Fulfilment's actions: conditional puts and updates; no transactions (the local stand-in has none). */
export const FULFILMENT_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
] as const;

/** Props of {@link OrdersTable}; there is nothing to choose, the key design is the domain's (orders-table.ts). */
export type OrdersTableProps = Record<string, never>;

/**
 * The orders table: the only record of what customers paid for, so protected from every loss the
 * stack can cause (point-in-time recovery, deletion protection, retained; a failed first create
 * leaves nothing, as no order can be in it yet).
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
      // Only the notice counters carry it: TTL never deletes an order or request.
      timeToLiveAttribute: TTL_ATTRIBUTE,
    });

    // The one design's indexes, in its order: CloudFormation adds or deletes one GSI per update, so a
    // retired index stays until the next release.
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
    return this.grantOnIndex(grantee, 'dynamodb:Scan', OUTBOX_DUE_INDEX.name);
  }

  /** Lets the reconciler scan the sparse KEYS_ONLY index of active standing orders (ADR 0060). */
  grantStandingOrdersScan(grantee: IGrantable): Grant {
    return this.grantOnIndex(grantee, 'dynamodb:Scan', ACTIVE_STANDING_ORDER_INDEX.name);
  }

  /**
   * Lets the admin API list every standing order, cancelled ones too (ADR 0061): a table Scan, which
   * no `dynamodb:LeadingKeys` can limit; the admin reads every order already.
   */
  grantStandingOrdersTableScan(grantee: IGrantable): Grant {
    return Grant.addToPrincipal({ grantee, actions: ['dynamodb:Scan'], resourceArns: [this.table.tableArn] });
  }

  private grantOnIndex(grantee: IGrantable, action: string, indexName: string): Grant {
    return Grant.addToPrincipal({
      grantee,
      actions: [action],
      resourceArns: [`${this.table.tableArn}/index/${indexName}`],
    });
  }

  /** GetItem and UpdateItem (no put: nothing new is made) on the items whose key starts with `prefix`. */
  private grantReadUpdate(grantee: IGrantable, prefix: string): Grant {
    return this.grantOnPrefixes(grantee, ['dynamodb:GetItem', 'dynamodb:UpdateItem'], [prefix]);
  }

  private grantOnPrefixes(grantee: IGrantable, actions: string[], prefixes: string[]): Grant {
    const keys = prefixes.map((prefix) => `${prefix}*`);
    return this.grantOnKeys(grantee, actions, 'ForAllValues:StringLike', keys);
  }

  /** `actions` on the items whose partition key matches `keys` (`dynamodb:LeadingKeys`), and no others. */
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

  /** Lets shop-status read the dispatch days' capacity counters, to tell the page the next day with room. */
  grantCapacityRead(grantee: IGrantable): Grant {
    return this.grantOnPrefixes(grantee, ['dynamodb:GetItem'], [CAPACITY_KEY_PREFIX]);
  }

  /** Lets create-checkout and admin-api count a client's open holds (read, then a versioned update). */
  grantClientHolds(grantee: IGrantable): Grant {
    return this.grantReadUpdate(grantee, CLIENT_HOLDS_KEY_PREFIX);
  }

  /** Lets a function reserve, release, sell and give back bottles on the dispatch days. */
  grantCapacityReservations(grantee: IGrantable): Grant {
    return this.grantReadUpdate(grantee, CAPACITY_KEY_PREFIX);
  }

  /**
   * Lets create-checkout make its transactions (ADR 0052): a ConditionCheckItem on `SETTINGS#shop`
   * (which reads nothing back) and a put of each session it made.
   */
  grantCheckoutTransactions(grantee: IGrantable): Grant {
    this.grantOnKeys(grantee, ['dynamodb:ConditionCheckItem'], 'ForAllValues:StringEquals', [SETTINGS_KEY]);
    return this.grantOnPrefixes(grantee, ['dynamodb:PutItem'], [CHECKOUT_SESSION_KEY_PREFIX]);
  }

  /** Lets a function read the shop's settings item and nothing else of the table. */
  grantShopSettingsRead(grantee: IGrantable): Grant {
    return this.grantOnKeys(grantee, ['dynamodb:GetItem'], 'ForAllValues:StringEquals', [SETTINGS_KEY]);
  }

  /**
   * Lets the weather notice read a day's orders (by index), the thresholds, the cached forecasts and
   * its own record (whose email it sends once): never an order's own item.
   */
  grantWeatherNotice(grantee: IGrantable): void {
    this.grantShopSettingsRead(grantee);
    this.grantOnPrefixes(
      grantee,
      ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
      [FORECAST_KEY_PREFIX, WEATHER_NOTICE_KEY_PREFIX],
    );
    this.grantOnIndex(grantee, 'dynamodb:Query', DISPATCH_DATE_INDEX.name);
  }

  /** Lets create-checkout, in requests mode, write order requests and its notice counters, never an order. */
  grantOrderRequestsWrite(grantee: IGrantable): Grant {
    return this.grantOnPrefixes(
      grantee,
      ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
      [REQUEST_KEY_PREFIX, NOTICE_LIMIT_KEY_PREFIX],
    );
  }

  /** Lets a function read, add to and prune the merchants' push subscriptions (ADR 0056): that item only. */
  grantPushSubscriptions(grantee: IGrantable): Grant {
    return this.grantOnKeys(
      grantee,
      ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
      'ForAllValues:StringEquals',
      [PUSH_SUBSCRIPTIONS_KEY],
    );
  }

  /** Lets the order page read and correct orders: no put, so it never creates one. */
  grantOrderPage(grantee: IGrantable): Grant {
    return this.grantReadUpdate(grantee, ORDER_KEY_PREFIX);
  }

  /** Lets the order page read and conditionally change a standing order (ADR 0059). */
  grantStandingOrderPage(grantee: IGrantable): Grant {
    return this.grantReadUpdate(grantee, STANDING_ORDER_KEY_PREFIX);
  }

  /** Lets the order page read a delayed payment's records: GetItem only (ADR 0047). */
  grantDebitRecordsRead(grantee: IGrantable): Grant {
    return this.grantOnPrefixes(
      grantee,
      ['dynamodb:GetItem'],
      [PENDING_DEBIT_KEY_PREFIX, FAILED_DEBIT_KEY_PREFIX],
    );
  }

  /** Lets the success page's lookup read an order's or pending debit's page key: GetItem only (ADR 0047). */
  grantOrderPageLinkRead(grantee: IGrantable): Grant {
    return this.grantOnPrefixes(grantee, ['dynamodb:GetItem'], [ORDER_KEY_PREFIX, PENDING_DEBIT_KEY_PREFIX]);
  }

  /**
   * Lets the webhook and reconciler write orders, debit records, standing orders and failed renewals
   * (ADR 0058), and read the settings: a compromised webhook can neither reopen a paused shop nor
   * touch a request. The table only: no function queries its indexes. Returns the grant on orders.
   */
  grantFulfilment(grantee: IGrantable): Grant {
    this.grantShopSettingsRead(grantee);
    return this.grantOnPrefixes(
      grantee,
      [...FULFILMENT_TABLE_ACTIONS],
      [
        ORDER_KEY_PREFIX,
        FAILED_DEBIT_KEY_PREFIX,
        PENDING_DEBIT_KEY_PREFIX,
        STANDING_ORDER_KEY_PREFIX,
        FAILED_RENEWAL_KEY_PREFIX,
      ],
    );
  }
}
