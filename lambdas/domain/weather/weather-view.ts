import type { AdminWeatherResponse } from '../../../shared/admin-responses';
import { firstComingDispatchDay, formatDispatchDate, type IsoDate } from '../../../shared/dispatch';
import type { WeatherCheck } from './weather-check';

/**
 * The dispatch day the weather check is about when none is named: the first dispatch day on or
 * after today (London), the one the merchant packs for next.
 */
export function comingWeatherDay(now: Date): IsoDate {
  return firstComingDispatchDay(now);
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The weather check as the admin API answers it, with the one line `orders status` prints, and
 * the forecast key's problem when the stage trades without one (ADR 0045).
 */
export function weatherView(check: WeatherCheck, forecastKeyProblem?: string): AdminWeatherResponse {
  const keyProblem = forecastKeyProblem === undefined ? {} : { forecastKeyProblem };
  if (check.state === 'not yet') {
    return {
      day: check.day,
      state: check.state,
      knownFrom: check.knownFrom,
      summary: check.message,
      ...keyProblem,
    };
  }
  const count = (verdict: string) => check.orders.filter((o) => o.verdict === verdict).length;
  const atRisk = count('at risk');
  const parts = [
    ...(atRisk > 0 ? [`${atRisk} at risk`] : []),
    ...(count('watch') > 0 ? [`${count('watch')} to watch`] : []),
    ...(count('fine') > 0 ? [`${count('fine')} fine`] : []),
    ...(count('unknown') > 0 ? [`${count('unknown')} unknown (could not see the forecast)`] : []),
  ];
  const day = formatDispatchDate(check.day);
  const summary =
    check.orders.length === 0
      ? `Weather for ${day}: no orders to check.`
      : `Weather for ${day} (${plural(check.orders.length, 'order', 'orders')}): ${parts.join(', ')}.`;
  return {
    day: check.day,
    state: check.state,
    forecastSeen: check.forecastSeen,
    orders: check.orders.map(({ reference, customerName, verdict, reason, move }) => ({
      reference,
      customerName,
      verdict,
      reason,
      ...(move && { move }),
    })),
    atRisk,
    summary,
    ...keyProblem,
  };
}
