import * as z from 'zod/mini';
import { calendarDateSchema as day } from '../../../shared/calendar-date';
import type { IsoDate } from '../../../shared/dispatch';

/** The most bottles one dispatch day may be set to: far above any culture, low enough to catch a typo. */
export const MAX_DAY_CAPACITY = 10_000;

const bottles = z.number().check(z.int(), z.minimum(0), z.maximum(MAX_DAY_CAPACITY));

/**
 * `capacityWeekly`, every dispatch day's default (absent: no limit), and `capacityDays`, a day's own limit by
 * date (`null`: none whatever the default). No limit anywhere is the shop before capacity; still counted.
 */
export const capacityItemFields = {
  capacityWeekly: z.optional(bottles),
  capacityDays: z.optional(z.record(day, z.nullable(bottles))),
};

export interface CapacitySettings {
  /** Bottles per dispatch day unless the day says otherwise; undefined: no limit. */
  weekly?: number | undefined;
  /** A day's own limit (null: none that day); a day not listed follows `weekly`. */
  days?: Readonly<Record<IsoDate, number | null>> | undefined;
}

/** The capacity settings of a parsed settings item; undefined when it sets none. */
export function capacityFromItem(item: {
  capacityWeekly?: number | undefined;
  capacityDays?: Record<string, number | null> | undefined;
}): CapacitySettings | undefined {
  if (item.capacityWeekly === undefined && item.capacityDays === undefined) return undefined;
  return {
    ...(item.capacityWeekly !== undefined && { weekly: item.capacityWeekly }),
    ...(item.capacityDays !== undefined && { days: item.capacityDays }),
  };
}

/** The most bottles `day` may sell; undefined when it has no limit. */
export function limitFor(capacity: CapacitySettings | undefined, day: IsoDate): number | undefined {
  const own = capacity?.days?.[day];
  if (own !== undefined) return own ?? undefined;
  return capacity?.weekly;
}
