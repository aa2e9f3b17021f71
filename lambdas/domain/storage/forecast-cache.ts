import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { forecastKey, itemKey, type ShopTable, TTL_ATTRIBUTE } from './orders-table';

/** One day's air temperatures at a place, as cached: °C and the London hour each was seen. */
const cachedDaysSchema = z.record(
  z.string(),
  z.object({ min: z.number(), max: z.number(), minHour: z.number(), maxHour: z.number() }),
);
export type CachedForecastDays = z.output<typeof cachedDaysSchema>;

/** Where a place's forecast of one London day is cached (FORECAST#<place>#<day>). */
export interface ForecastCacheKey {
  latitude: number;
  longitude: number;
  /** The London date the forecast was fetched on. */
  day: string;
}

/** Cached forecasts live two days: long enough for today's and tomorrow's reads, then DynamoDB deletes them. */
const CACHE_SECONDS = 2 * 86_400;

/** A place's forecast fetched today, or undefined when none is cached (or it is unreadable). */
export async function readCachedForecast(
  table: ShopTable,
  at: ForecastCacheKey,
): Promise<CachedForecastDays | undefined> {
  const { Item } = await table.client.send(
    new GetCommand({
      TableName: table.tableName,
      Key: itemKey(forecastKey(at.latitude, at.longitude, at.day)),
    }),
  );
  const cached = z.object({ days: cachedDaysSchema }).safeParse(Item);
  return cached.success ? cached.data.days : undefined;
}

/** Caches a place's forecast fetched at `now`; DynamoDB deletes it after two days. */
export async function writeCachedForecast(
  table: ShopTable,
  at: ForecastCacheKey,
  days: CachedForecastDays,
  now: Date,
): Promise<void> {
  await table.client.send(
    new PutCommand({
      TableName: table.tableName,
      Item: {
        ...itemKey(forecastKey(at.latitude, at.longitude, at.day)),
        days,
        fetchedAt: now.toISOString(),
        [TTL_ATTRIBUTE]: Math.floor(now.getTime() / 1000) + CACHE_SECONDS,
      },
    }),
  );
}
