import * as z from 'zod/mini';
import type { IsoDate } from '../../../shared/dispatch';
import type { ForecastPlace } from './postcode-places';

/** One day's air temperature at a place: its lowest and highest, and the London hour of each. */
export interface DayForecast {
  min: number;
  max: number;
  minHour: number;
  maxHour: number;
}
export type PlaceForecast = Record<IsoDate, DayForecast>;

/** Where forecasts come from: Open-Meteo's forecast API or anything speaking it (the local stand-in). */
export interface ForecastSource {
  /** e.g. https://api.open-meteo.com or, with a key, https://customer-api.open-meteo.com. */
  url: string;
  /** Open-Meteo's commercial key (`apikey`), absent on the free API and the stand-in. */
  apiKey?: string | undefined;
  /** A slow provider must never hold up the admin page: past this the forecast is "not seen". */
  timeoutMs: number;
  /** A commercial stage with no readable key (so the free endpoint): what card and alarm say (ADR 0045). */
  keyProblem?: string | undefined;
}

/** The provider failed, answered badly or too slowly: the check says it could not see the forecast. */
export class ForecastUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ForecastUnavailableError';
  }
}

const answerSchema = z.object({
  hourly: z.object({
    time: z.array(z.string()),
    temperature_2m: z.array(z.nullable(z.number())),
  }),
});

/**
 * A place's hourly temperatures for 7 days by London day (Open-Meteo answers in the `timezone` asked); the
 * day's min and max come from them with their hours, which the reason names ("Tuesday morning").
 * @throws ForecastUnavailableError on a network error, a non-2xx answer, a bad body or the timeout.
 */
export async function fetchPlaceForecast(
  place: ForecastPlace,
  source: ForecastSource,
): Promise<PlaceForecast> {
  const url = new URL('/v1/forecast', source.url);
  url.searchParams.set('latitude', place.latitude.toFixed(2));
  url.searchParams.set('longitude', place.longitude.toFixed(2));
  url.searchParams.set('hourly', 'temperature_2m');
  url.searchParams.set('timezone', 'Europe/London');
  url.searchParams.set('forecast_days', '7');
  if (source.apiKey !== undefined) url.searchParams.set('apikey', source.apiKey);
  let body: unknown;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(source.timeoutMs) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    body = await response.json();
  } catch (error) {
    throw new ForecastUnavailableError(`No forecast for ${place.town}`, { cause: error });
  }
  const parsed = answerSchema.safeParse(body);
  if (!parsed.success) throw new ForecastUnavailableError(`Unreadable forecast for ${place.town}`);
  const days: PlaceForecast = {};
  const { time, temperature_2m: temperatures } = parsed.data.hourly;
  time.forEach((stamp, index) => {
    const value = temperatures[index];
    if (value === null || value === undefined) return;
    const day = stamp.slice(0, 10);
    const hour = Number(stamp.slice(11, 13));
    const seen = days[day];
    if (seen === undefined) {
      days[day] = { min: value, max: value, minHour: hour, maxHour: hour };
      return;
    }
    if (value < seen.min) Object.assign(seen, { min: value, minHour: hour });
    if (value > seen.max) Object.assign(seen, { max: value, maxHour: hour });
  });
  return days;
}
