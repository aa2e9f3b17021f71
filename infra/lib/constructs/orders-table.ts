import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';

/** Name of the GSI that lists one dispatch day's orders by status (docs/architecture.md). */
export const BY_DISPATCH_DATE_INDEX = 'byDispatchDate';
/** Name of the GSI that finds an order or request by its customer-facing reference (operator commands). */
export const BY_REFERENCE_INDEX = 'byReference';

/**
 * The DynamoDB actions that fulfilment needs: read an order, create it with a conditional put, and
 * move it on with conditional updates. No transactions (the local stand-in has none), no scans.
 */
export const FULFILMENT_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
] as const;

/** The shop's settings item (pause, requests mode): the same key as lambdas/domain/shop-settings/shop-settings.ts. */
export const SHOP_SETTINGS_KEY = 'SETTINGS#shop';
/** Order requests' key prefix: the same as lambdas/domain/orders/order-request.ts. */
export const ORDER_REQUEST_KEY_PREFIX = 'REQUEST#';

/** Props of {@link OrdersTable}; there is nothing to choose, the key design is a contract. */
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
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      // On demand: a small shop has long idle stretches, and pays nothing for them.
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
      // Encrypted at rest with the AWS owned key: free, and no key policy for the functions to need.
      encryption: TableEncryption.DEFAULT,
    });

    this.table.addGlobalSecondaryIndex({
      indexName: BY_DISPATCH_DATE_INDEX,
      partitionKey: { name: 'gsi1pk', type: AttributeType.STRING },
      sortKey: { name: 'gsi1sk', type: AttributeType.STRING },
      projectionType: ProjectionType.ALL,
    });
    // Keys only: the operator's commands read the item itself, strongly consistent, by its key.
    this.table.addGlobalSecondaryIndex({
      indexName: BY_REFERENCE_INDEX,
      partitionKey: { name: 'reference', type: AttributeType.STRING },
      projectionType: ProjectionType.KEYS_ONLY,
    });
  }

  /**
   * Lets a function read the shop's settings item (`pk = SETTINGS#shop`) and nothing else of the
   * table: `dynamodb:LeadingKeys` limits every key it may touch.
   */
  grantShopSettingsRead(grantee: IGrantable): Grant {
    return Grant.addToPrincipal({
      grantee,
      actions: ['dynamodb:GetItem'],
      resourceArns: [this.table.tableArn],
      conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [SHOP_SETTINGS_KEY] } },
    });
  }

  /**
   * Lets create-checkout, in requests mode, record order requests (`pk = REQUEST#…`) with
   * conditional writes and move their email states: request items only, never an order.
   */
  grantOrderRequestsWrite(grantee: IGrantable): Grant {
    return Grant.addToPrincipal({
      grantee,
      actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
      resourceArns: [this.table.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${ORDER_REQUEST_KEY_PREFIX}*`] } },
    });
  }

  /**
   * Lets a fulfilment function (webhook, reconciler) read and conditionally write orders.
   * Scoped to the table itself, not its indexes: no function queries the index, the merchant does.
   */
  grantFulfilment(grantee: IGrantable): Grant {
    return Grant.addToPrincipal({
      grantee,
      actions: [...FULFILMENT_TABLE_ACTIONS],
      resourceArns: [this.table.tableArn],
    });
  }
}
