import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** The orders table as the shop's operator code sees it: the document client and the table name. */
export interface ShopTable {
  client: DynamoDBDocumentClient;
  tableName: string;
}

/** Name of the GSI that finds an order or request by its customer-facing reference. */
export const BY_REFERENCE_INDEX = 'byReference';

/** Runs a conditional write: `false` when its condition did not hold, any other error thrown. */
export async function conditionalWrite(write: () => Promise<unknown>): Promise<boolean> {
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
