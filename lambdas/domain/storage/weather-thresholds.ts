import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { RefusedError } from '../refusal';
import { itemKey, SETTINGS_KEY, type ShopTable } from './orders-table';

/** Air temperatures (°C) on the way that make an order worth watching, or put it at risk. */
export interface WeatherThresholds {
  atRiskBelow: number;
  watchBelow: number;
  watchAbove: number;
  atRiskAbove: number;
}

/**
 * Defaults for Daphnia in a sealed 250ml bottle (docs/decisions/0036-weather-check.md): at risk
 * below 0 °C (the bottle's water can freeze overnight in a van or depot) or above 28 °C (adult
 * D. magna died at 30 °C in Goss's tolerance tests, ASTM STP 27430S; acclimation lifts the LT50 by
 * only 1–2 °C, Paul et al. 2004, Can. J. Zool. 82); watch below 4 °C or above 24 °C.
 */
export const DEFAULT_WEATHER_THRESHOLDS: WeatherThresholds = {
  atRiskBelow: 0,
  watchBelow: 4,
  watchAbove: 24,
  atRiskAbove: 28,
};

const thresholdsSchema = z.object({
  atRiskBelow: z.number(),
  watchBelow: z.number(),
  watchAbove: z.number(),
  atRiskAbove: z.number(),
});

/** The merchant's thresholds, or the defaults; a malformed item (a hand edit) reads as the defaults. */
export async function readWeatherThresholds(table: ShopTable): Promise<WeatherThresholds> {
  const { Item } = await table.client.send(
    new GetCommand({ TableName: table.tableName, Key: itemKey(SETTINGS_KEY), ConsistentRead: true }),
  );
  const parsed = thresholdsSchema.safeParse(Item?.weatherThresholds);
  return parsed.success ? parsed.data : DEFAULT_WEATHER_THRESHOLDS;
}

/**
 * Sets the thresholds, one attribute of the settings item (pause and capacity stay as they are).
 * @throws RefusedError unless atRiskBelow ≤ watchBelow < watchAbove ≤ atRiskAbove, within −30..50 °C.
 */
export async function writeWeatherThresholds(
  table: ShopTable,
  thresholds: WeatherThresholds,
  now: Date,
): Promise<WeatherThresholds> {
  const { atRiskBelow, watchBelow, watchAbove, atRiskAbove } = thresholds;
  const values = [atRiskBelow, watchBelow, watchAbove, atRiskAbove];
  if (
    values.some((v) => !Number.isFinite(v) || v < -30 || v > 50) ||
    !(atRiskBelow <= watchBelow && watchBelow < watchAbove && watchAbove <= atRiskAbove)
  ) {
    throw new RefusedError(
      'Weather thresholds must read: at risk below ≤ watch below < watch above ≤ at risk above, each between −30 and 50 °C.',
    );
  }
  await table.client.send(
    new UpdateCommand({
      TableName: table.tableName,
      Key: itemKey(SETTINGS_KEY),
      // A shop with no settings item yet stays open, as no item read.
      UpdateExpression:
        'SET weatherThresholds = :t, #mode = if_not_exists(#mode, :open), #updatedAt = if_not_exists(#updatedAt, :now)',
      ExpressionAttributeNames: { '#mode': 'mode', '#updatedAt': 'updatedAt' },
      ExpressionAttributeValues: {
        ':t': { atRiskBelow, watchBelow, watchAbove, atRiskAbove },
        ':open': 'open',
        ':now': now.toISOString(),
      },
    }),
  );
  return { atRiskBelow, watchBelow, watchAbove, atRiskAbove };
}
