import { z } from 'zod';

/** A table's partition key and each index's, by name: what `dynamodb:LeadingKeys` reads. */
export interface TableKeys {
  partitionKey: string;
  indexes: ReadonlyMap<string, string>;
}

/** One authorisation AWS makes for a DynamoDB request: the action, the table (or index) and the keys. */
export interface DynamoCheck {
  action: string;
  table: string;
  index: string | undefined;
  /** The partition key values the request touches; undefined when it names none (Scan, DescribeTable). */
  leadingKeys: string[] | undefined;
}

const attributeValue = z.record(z.string(), z.unknown());
const item = z.record(z.string(), attributeValue);
const keyed = z.looseObject({ TableName: z.string(), Key: item.optional(), Item: item.optional() });
const requestSchema = z.looseObject({
  TableName: z.string().optional(),
  IndexName: z.string().optional(),
  Key: item.optional(),
  Item: item.optional(),
  KeyConditionExpression: z.string().optional(),
  ExpressionAttributeNames: z.record(z.string(), z.string()).optional(),
  ExpressionAttributeValues: item.optional(),
  KeyConditions: z
    .record(
      z.string(),
      z.object({ ComparisonOperator: z.string(), AttributeValueList: z.array(attributeValue).optional() }),
    )
    .optional(),
  TransactItems: z
    .array(
      z.object({
        Put: keyed.optional(),
        Update: keyed.optional(),
        Delete: keyed.optional(),
        ConditionCheck: keyed.optional(),
        Get: keyed.optional(),
      }),
    )
    .optional(),
  RequestItems: z
    .record(
      z.string(),
      z.union([
        z.looseObject({ Keys: z.array(item) }),
        z.array(
          z.object({
            PutRequest: z.object({ Item: item }).optional(),
            DeleteRequest: z.object({ Key: item }).optional(),
          }),
        ),
      ]),
    )
    .optional(),
});

/** A string or number key's value as IAM sees it (LeadingKeys compares strings). */
function keyValue(value: Record<string, unknown> | undefined): string | undefined {
  const raw = value?.S ?? value?.N;
  return typeof raw === 'string' ? raw : undefined;
}

/**
 * The partition key value a Query's key condition fixes: `#k = :v` (or `k = :v`) on the queried
 * table's or index's partition key, or the legacy KeyConditions' EQ.
 */
function queryPartitionValue(input: z.infer<typeof requestSchema>, attribute: string): string | undefined {
  if (input.KeyConditionExpression !== undefined) {
    const names = input.ExpressionAttributeNames ?? {};
    for (const clause of input.KeyConditionExpression.split(/\s+AND\s+/i)) {
      const match = /^\s*\(?\s*([#\w]+)\s*=\s*(:\w+)\s*\)?\s*$/.exec(clause);
      if (!match?.[1] || !match[2]) continue;
      const name = match[1].startsWith('#') ? names[match[1]] : match[1];
      if (name === attribute) return keyValue(input.ExpressionAttributeValues?.[match[2]]);
    }
    return undefined;
  }
  const condition = input.KeyConditions?.[attribute];
  return condition?.ComparisonOperator === 'EQ' ? keyValue(condition.AttributeValueList?.[0]) : undefined;
}

/**
 * What IAM authorises for one DynamoDB request, as AWS does: each item of a transaction under its
 * own action (PutItem, UpdateItem, DeleteItem, ConditionCheckItem, GetItem) and table, a batch per
 * table, and `dynamodb:LeadingKeys` from the partition key values the request touches (a Query's
 * from its key condition on the table's or the index's partition key).
 */
export function dynamoChecks(
  operation: string,
  body: unknown,
  tables: ReadonlyMap<string, TableKeys>,
): DynamoCheck[] {
  const parsed = requestSchema.safeParse(body);
  const input = parsed.success ? parsed.data : {};
  const partitionOf = (table: string, index?: string) =>
    index === undefined ? tables.get(table)?.partitionKey : tables.get(table)?.indexes.get(index);
  const keysOf = (table: string, ...items: Array<z.infer<typeof item> | undefined>) => {
    const attribute = partitionOf(table);
    const values = items.map((one) => (attribute === undefined ? undefined : keyValue(one?.[attribute])));
    return values.every((value) => value !== undefined) ? values : undefined;
  };

  if (input.TransactItems !== undefined) {
    return input.TransactItems.flatMap((entry) => {
      const kinds = [
        ['Put', 'PutItem'],
        ['Update', 'UpdateItem'],
        ['Delete', 'DeleteItem'],
        ['ConditionCheck', 'ConditionCheckItem'],
        ['Get', 'GetItem'],
      ] as const;
      return kinds.flatMap(([kind, action]) => {
        const request = entry[kind];
        if (request === undefined) return [];
        return [
          {
            action: `dynamodb:${action}`,
            table: request.TableName,
            index: undefined,
            leadingKeys: keysOf(request.TableName, request.Key ?? request.Item),
          },
        ];
      });
    });
  }
  if (input.RequestItems !== undefined) {
    return Object.entries(input.RequestItems).map(([table, requests]) => ({
      action: `dynamodb:${operation}`,
      table,
      index: undefined,
      leadingKeys: Array.isArray(requests)
        ? keysOf(table, ...requests.map((one) => one.PutRequest?.Item ?? one.DeleteRequest?.Key))
        : keysOf(table, ...requests.Keys),
    }));
  }
  const table = input.TableName ?? '';
  let leadingKeys: string[] | undefined;
  if (operation === 'Query') {
    const attribute = partitionOf(table, input.IndexName);
    const value = attribute === undefined ? undefined : queryPartitionValue(input, attribute);
    leadingKeys = value === undefined ? undefined : [value];
  } else if (input.Key !== undefined || input.Item !== undefined) {
    leadingKeys = keysOf(table, input.Key ?? input.Item);
  }
  return [{ action: `dynamodb:${operation}`, table, index: input.IndexName, leadingKeys }];
}
