import type { IsoDate } from '../../../shared/dispatch';
import type { OverLimit } from '../../../shared/over-limit';
import { delayDispatch } from '../operations/order-actions';
import type { ShopDeps } from '../operations/shop-deps';
import { RefusedError } from '../refusal';
import { checkWeather, type WeatherDeps, type WeatherMove } from './weather-check';

/** One order at risk and where the delay took it (`to`), or null and why it stayed for the merchant. */
export interface AtRiskMove extends WeatherMove {
  reference: string;
  customerName: string;
}

export interface AtRiskDelayResult {
  from: IsoDate;
  /** Every order at risk on `from`: each moved to its own first fine day, or left with why. */
  orders: AtRiskMove[];
  /** Orders this run moved, and every order of the delay whose email it sent (as delay's). */
  moved: string[];
  emailed: string[];
  /** The new days now sold past their limit (the bottles moved all the same, as delay's do). */
  overLimit?: Array<OverLimit & { date: IsoDate }>;
}

/**
 * "Delay the orders at risk": each order at risk on `day` goes to the first working day the forecast read
 * does not put at risk (the check's `move`) through delayDispatch, reason `weather`; orders without one stay,
 * listed with why. The day stays open for the rest.
 * @throws RefusedError when no order of the day is at risk (or the forecast is not known yet).
 */
export async function delayOrdersAtRisk(
  day: IsoDate,
  actor: string,
  deps: ShopDeps & WeatherDeps,
  /** The weather check's clock when it is not the shop's (the local shop's LOCAL_WEATHER_NOW). */
  weatherNow: () => Date = deps.now,
): Promise<AtRiskDelayResult> {
  const check = await checkWeather(day, { ...deps, now: weatherNow });
  if (check.state !== 'checked') throw new RefusedError(check.message);
  const orders = check.orders.flatMap(({ reference, customerName, move }) =>
    move === undefined ? [] : [{ reference, customerName, ...move }],
  );
  if (orders.length === 0) throw new RefusedError('No order of that day is at risk: nothing delayed.');
  const byDay = new Map<IsoDate, string[]>();
  for (const { reference, to } of orders)
    if (to !== null) byDay.set(to, [...(byDay.get(to) ?? []), reference]);
  const result: AtRiskDelayResult = { from: day, orders, moved: [], emailed: [] };
  // One delay per new day: delay's subset path moves, counts and emails exactly those orders.
  for (const [to, references] of [...byDay].sort(([a], [b]) => a.localeCompare(b))) {
    let delayed: Awaited<ReturnType<typeof delayDispatch>>;
    try {
      delayed = await delayDispatch({ from: day, to, reason: 'weather', actor, references }, deps);
    } catch (error) {
      // Gone from the day since the check (dispatched, refunded, moved by hand): said, not thrown,
      // so the orders already moved for other days are still reported.
      if (!(error instanceof RefusedError)) throw error;
      result.orders = result.orders.map((o) =>
        references.includes(o.reference) ? { ...o, to: null, why: `Not moved: ${error.message}` } : o,
      );
      continue;
    }
    result.moved.push(...delayed.moved);
    result.emailed.push(...delayed.emailed);
    if (delayed.overLimit)
      result.overLimit = [...(result.overLimit ?? []), { date: to, ...delayed.overLimit }];
  }
  return result;
}
