import type { Server } from 'node:http';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { dynaliteWithTransactions } from '../../local/dynalite-transactions';
import { ensureOrdersTable } from '../../local/orders-table';
import { startSesLocal } from '../../local/ses-local';

/** Local-only values: none is a secret. */
export const STAND_IN_REGION = 'eu-west-2';
export const ORDERS_TABLE = 'orders-test';
const CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

function portOf(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('stand-in is not on a TCP port');
  return address.port;
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** One message as aws-ses-v2-local stores it (`GET /store`). */
const storedEmailSchema = z.object({
  messageId: z.string(),
  from: z.string(),
  replyTo: z.array(z.string()),
  destination: z.object({ to: z.array(z.string()), cc: z.array(z.string()), bcc: z.array(z.string()) }),
  subject: z.string(),
  body: z.object({ html: z.string().optional(), text: z.string().optional() }),
});
export type StoredEmail = z.infer<typeof storedEmailSchema>;
const storeSchema = z.object({ emails: z.array(storedEmailSchema) });

export interface StandIns {
  dynamoEndpoint: string;
  sesEndpoint: string;
  tableName: string;
  /** A plain client for the table: for the test's own reads, never the code under test's client. */
  inspector: DynamoDBDocumentClient;
  /** Every item in the orders table. */
  orderItems(): Promise<Array<Record<string, unknown>>>;
  /** Every message the SES stand-in accepted. */
  emails(): Promise<StoredEmail[]>;
  close(): Promise<void>;
}

/**
 * What a shop Lambda is configured with to reach these stand-ins and to sign its emails, as a
 * deployed stack sets it: the table, both endpoints, the region, the sender and the seller.
 */
export function standInEnvironment(
  standIns: Pick<StandIns, 'tableName' | 'dynamoEndpoint' | 'sesEndpoint'>,
): Record<string, string> {
  return {
    ORDERS_TABLE_NAME: standIns.tableName,
    DYNAMODB_ENDPOINT: standIns.dynamoEndpoint,
    SES_ENDPOINT: standIns.sesEndpoint,
    AWS_REGION: STAND_IN_REGION,
    SES_FROM_ADDRESS: 'orders@live-aquatics.test',
    MERCHANT_EMAIL: 'merchant@live-aquatics.test',
    SELLER_NAME: 'Live Aquatics Ltd',
    SELLER_ADDRESS: '1 Pond Lane\nBristol BS1 4DJ',
    SELLER_EMAIL: 'hello@live-aquatics.test',
  };
}

/**
 * Starts dynalite (in memory) and aws-ses-v2-local on free ports and creates the orders table with
 * `ensureOrdersTable`, as `npm start` does. Each test file gets its own pair; the SES stand-in's
 * store is per process, and vitest runs each file in its own.
 */
export async function startStandIns(): Promise<StandIns> {
  const dynamo = dynaliteWithTransactions({ createTableMs: 0 });
  await new Promise<void>((resolve) => dynamo.listen(0, '127.0.0.1', resolve));
  const dynamoEndpoint = `http://127.0.0.1:${portOf(dynamo)}`;

  const ses = await startSesLocal({ port: 0, host: '127.0.0.1' });
  const sesEndpoint = `http://127.0.0.1:${portOf(ses)}`;

  const raw = new DynamoDBClient({
    region: STAND_IN_REGION,
    endpoint: dynamoEndpoint,
    credentials: CREDENTIALS,
  });
  await ensureOrdersTable(raw, ORDERS_TABLE);
  const inspector = DynamoDBDocumentClient.from(raw);

  return {
    dynamoEndpoint,
    sesEndpoint,
    tableName: ORDERS_TABLE,
    inspector,
    async orderItems() {
      const { Items } = await inspector.send(
        new ScanCommand({ TableName: ORDERS_TABLE, ConsistentRead: true }),
      );
      return Items ?? [];
    },
    async emails() {
      const response = await fetch(`${sesEndpoint}/store`);
      return storeSchema.parse(await response.json()).emails;
    },
    async close() {
      raw.destroy();
      await Promise.all([close(dynamo), close(ses)]);
    },
  };
}
