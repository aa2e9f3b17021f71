import { addWorkingDays, type IsoDate } from '../../../shared/dispatch';
import { type DelayResult, delayDispatch } from '../operations/order-actions';
import type { ShopDeps } from '../operations/shop-deps';
import { RefusedError } from '../refusal';
import { checkWeather, type WeatherDeps } from './weather-check';

/**
 * Where the orders at risk go: the next working day. Frost and heat come and go within days, and a
 * week's wait is a week longer for live animals in the customer's plan (ADR 0036).
 */
export function atRiskDelayDay(day: IsoDate): IsoDate {
  return addWorkingDays(day, 1);
}

/**
 * "Delay the orders at risk": moves just the orders the weather check marks at risk on `day` to the
 * next dispatch day, through delay's own path (its emails once, bottles, history), with the reason
 * `weather`. The orders that are fine or to watch stay on the day, which stays open.
 * @throws RefusedError when no order of the day is at risk (or the forecast is not known yet).
 */
export async function delayOrdersAtRisk(
  day: IsoDate,
  actor: string,
  deps: ShopDeps & WeatherDeps,
  /** The weather check's clock when it is not the shop's (the local shop's LOCAL_WEATHER_NOW). */
  weatherNow: () => Date = deps.now,
): Promise<DelayResult> {
  const check = await checkWeather(day, { ...deps, now: weatherNow });
  if (check.state !== 'checked') throw new RefusedError(check.message);
  const atRisk = check.orders.filter((o) => o.verdict === 'at risk').map((o) => o.reference);
  if (atRisk.length === 0) throw new RefusedError('No order of that day is at risk: nothing delayed.');
  return delayDispatch(
    { from: day, to: atRiskDelayDay(day), reason: 'weather', actor, references: atRisk },
    deps,
  );
}
