import {
  addDays,
  addWorkingDays,
  expectedArrivalDate,
  formatDispatchDate,
  type IsoDate,
  londonDate,
  londonOffsetMs,
} from '../../../shared/dispatch';
import { logger } from '../../lib/logger';
import { readCachedForecast, writeCachedForecast } from '../storage/forecast-cache';
import type { ShopTable } from '../storage/orders-table';
import { queryDispatchDay } from '../storage/records';
import { readWeatherThresholds, type WeatherThresholds } from '../storage/weather-thresholds';
import { type DayForecast, type ForecastSource, fetchPlaceForecast, type PlaceForecast } from './open-meteo';
import { type ForecastPlace, placeOfPostcode } from './postcode-places';

export type WeatherVerdict = 'fine' | 'watch' | 'at risk' | 'unknown';

/** "Delay the orders at risk": the first working day after its own not at risk, or null in the forecast. */
export interface WeatherMove {
  to: IsoDate | null;
  /** "Wednesday 9 December: −5 °C in Inverness on Monday morning; Tuesday at risk too: …; Wednesday fine". */
  why: string;
}

export interface OrderWeather {
  reference: string;
  customerName: string;
  customerEmail: string;
  verdict: WeatherVerdict;
  /** "−4 °C in Aberdeen on Tuesday morning"; for "unknown", why. */
  reason: string;
  /** Orders at risk only: where the delay takes them. */
  move?: WeatherMove;
}

export type WeatherCheck =
  | { day: IsoDate; state: 'not yet'; knownFrom: string; message: string }
  | { day: IsoDate; state: 'checked'; forecastSeen: boolean; orders: OrderWeather[] };

export interface WeatherDeps {
  table: ShopTable;
  now: () => Date;
  forecast: ForecastSource;
  /** Where parcels leave from (the seller's postcode): its weather counts for every order. */
  dispatchPostcode?: string | undefined;
}

/** A forecast is trusted from 18:00 London two days before the dispatch day (about 60 hours ahead). */
export function weatherKnownFrom(day: IsoDate): Date {
  const wall = Date.parse(`${addDays(day, -2)}T18:00:00Z`);
  return new Date(wall - londonOffsetMs(wall));
}

/** One place's forecast, fetched at most once a London day (FORECAST#<place>#<today>); failures not kept. */
export async function forecastFor(place: ForecastPlace, deps: WeatherDeps): Promise<PlaceForecast> {
  const now = deps.now();
  const at = { latitude: place.latitude, longitude: place.longitude, day: londonDate(now) };
  const cached = await readCachedForecast(deps.table, at);
  if (cached !== undefined) return cached;
  const days = await fetchPlaceForecast(place, deps.forecast);
  await writeCachedForecast(deps.table, at, days, now);
  return days;
}

/** What the check knows of a dispatch day's weather: where parcels leave, the places' forecasts and the thresholds. */
interface Readings {
  origin: ForecastPlace | undefined;
  forecasts: ReadonlyMap<string, PlaceForecast | undefined>;
  thresholds: WeatherThresholds;
}

const placeId = (place: ForecastPlace) => place.town + place.latitude;

/**
 * The worst of the dispatch postcode on `day` and the order's place on the day and the arrival day; `unseen`
 * names a place with no forecast for one of those days.
 */
function judgeOrder(
  postcode: string,
  day: IsoDate,
  { origin, forecasts, thresholds }: Readings,
): ReturnType<typeof judge> | { unseen: string } {
  const destination = placeOfPostcode(postcode);
  const legs: Array<[ForecastPlace | undefined, IsoDate]> = [
    ...(origin ? ([[origin, day]] as Array<[ForecastPlace, IsoDate]>) : []),
    [destination, day],
    [destination, expectedArrivalDate(day)],
  ];
  let worst: ReturnType<typeof judge> | undefined;
  for (const [place, when] of legs) {
    const forecast = place && forecasts.get(placeId(place))?.[when];
    if (!place || !forecast) return { unseen: place?.town ?? postcode };
    const judged = judge({ town: place.town, day: when, forecast }, thresholds);
    if (worst === undefined || judged.severity > worst.severity) worst = judged;
  }
  return worst ?? { verdict: 'fine', reason: '', severity: 0 };
}

const weekdayOf = (day: IsoDate) => formatDispatchDate(day).split(' ')[0];

/**
 * The first working day after `day` not at risk (watch is fine, as for orders staying), as far as the
 * forecast read reaches: a missing reading ends the search (ADR 0041).
 */
function firstDayOutOfRisk(
  day: IsoDate,
  ownReason: string,
  judgeOnDay: (day: IsoDate) => ReturnType<typeof judgeOrder>,
): WeatherMove {
  const seen = [ownReason];
  for (let candidate = addWorkingDays(day, 1); ; candidate = addWorkingDays(candidate, 1)) {
    const judged = judgeOnDay(candidate);
    if ('unseen' in judged) {
      return { to: null, why: `No fine day within the forecast: decide by hand. ${seen.join('; ')}` };
    }
    const weekday = weekdayOf(candidate);
    if (judged.verdict !== 'at risk') {
      const verdict = judged.verdict === 'fine' ? 'fine' : `to watch (${judged.reason})`;
      return {
        to: candidate,
        why: `${formatDispatchDate(candidate)}: ${seen.join('; ')}; ${weekday} ${verdict}`,
      };
    }
    seen.push(`${weekday} at risk too: ${judged.reason}`);
  }
}

const RANK: Record<WeatherVerdict, number> = { fine: 0, watch: 1, 'at risk': 2, unknown: 3 };

function partOfDay(hour: number): string {
  if (hour < 12) return 'morning';
  if (hour < 18) return 'afternoon';
  return 'evening';
}

/** "−4 °C": whole degrees with a true minus sign, as a forecast reads. */
function degrees(value: number): string {
  const rounded = Math.round(value);
  return `${rounded < 0 ? '\u2212' : ''}${Math.abs(rounded)} °C`;
}

interface Reading {
  town: string;
  day: IsoDate;
  forecast: DayForecast;
}

/** The worst of one reading: its verdict and the words for it. */
function judge(
  reading: Reading,
  t: WeatherThresholds,
): { verdict: WeatherVerdict; reason: string; severity: number } {
  const weekday = formatDispatchDate(reading.day).split(' ')[0];
  const cold = (v: WeatherVerdict) => ({
    verdict: v,
    reason: `${degrees(reading.forecast.min)} in ${reading.town} on ${weekday} ${partOfDay(reading.forecast.minHour)}`,
    severity: RANK[v] * 100 + (t.watchBelow - reading.forecast.min),
  });
  const hot = (v: WeatherVerdict) => ({
    verdict: v,
    reason: `${degrees(reading.forecast.max)} in ${reading.town} on ${weekday} ${partOfDay(reading.forecast.maxHour)}`,
    severity: RANK[v] * 100 + (reading.forecast.max - t.watchAbove),
  });
  if (reading.forecast.min < t.atRiskBelow) return cold('at risk');
  if (reading.forecast.max > t.atRiskAbove) return hot('at risk');
  if (reading.forecast.min < t.watchBelow) return cold('watch');
  if (reading.forecast.max > t.watchAbove) return hot('watch');
  return {
    verdict: 'fine',
    reason: `${degrees(reading.forecast.min)} to ${degrees(reading.forecast.max)} in ${reading.town}`,
    severity: 0,
  };
}

/**
 * One dispatch day's check: each paid order's verdict by the merchant's thresholds, from the dispatch
 * postcode and the order's place. Before weatherKnownFrom it says when it will know; a place that cannot be
 * seen (provider down or slow) makes its orders "unknown", never an error.
 */
export async function checkWeather(day: IsoDate, deps: WeatherDeps): Promise<WeatherCheck> {
  const knownFrom = weatherKnownFrom(day);
  if (deps.now() < knownFrom) {
    return {
      day,
      state: 'not yet',
      knownFrom: knownFrom.toISOString(),
      message: `The weather for ${formatDispatchDate(day)} is checked from 18:00 on ${formatDispatchDate(addDays(day, -2))}.`,
    };
  }
  const [records, thresholds] = await Promise.all([
    queryDispatchDay(deps.table, day, 'paid'),
    readWeatherThresholds(deps.table),
  ]);
  const orders = records.flatMap((r) => (r.kind === 'order' ? [r.order] : []));
  const origin = deps.dispatchPostcode === undefined ? undefined : placeOfPostcode(deps.dispatchPostcode);
  const places = new Map<string, ForecastPlace>();
  for (const place of [origin, ...orders.map((o) => placeOfPostcode(o.postcode))]) {
    if (place) places.set(placeId(place), place);
  }
  const forecasts = new Map<string, PlaceForecast | undefined>();
  await Promise.all(
    [...places].map(async ([id, place]) => {
      try {
        forecasts.set(id, await forecastFor(place, deps));
      } catch (error) {
        logger.warn('Forecast not seen', { town: place.town, error: String(error) });
        forecasts.set(id, undefined);
      }
    }),
  );
  const judgeOn = (order: { postcode: string }, when: IsoDate) =>
    judgeOrder(order.postcode, when, { origin, forecasts, thresholds });
  let forecastSeen = true;
  const verdicts = orders.map((order): OrderWeather => {
    const own = {
      reference: order.reference,
      customerName: order.customerName,
      customerEmail: order.customerEmail,
    };
    const judged = judgeOn(order, day);
    if ('unseen' in judged) {
      forecastSeen = false;
      return { ...own, verdict: 'unknown', reason: `Could not see the forecast for ${judged.unseen}` };
    }
    if (judged.verdict !== 'at risk') return { ...own, verdict: judged.verdict, reason: judged.reason };
    return {
      ...own,
      verdict: 'at risk',
      reason: judged.reason,
      move: firstDayOutOfRisk(day, judged.reason, (when) => judgeOn(order, when)),
    };
  });
  verdicts.sort((a, b) => RANK[b.verdict] - RANK[a.verdict]);
  return { day, state: 'checked', forecastSeen, orders: verdicts };
}
