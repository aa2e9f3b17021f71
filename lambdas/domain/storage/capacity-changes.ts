import type { CapacityChange } from './capacity-store';

// The transitions of a dispatch day's bottles (capacity/holds.ts says when each is made), each ONE
// conditional update of the day's item:
//
//   reserve:   ADD taken n, holds {h}       if taken <= limit - n (when limited), h neither held nor sold
//   release:   DELETE holds {h}, ADD taken -n               if h is held
//   sell:      DELETE holds {h}, ADD sold n, sales {h}      if h is held
//   sell late: ADD taken n, sold n, sales {h}               if h is neither held nor sold (limited when asked)
//   give back: DELETE sales {h}, ADD sold -n, taken -n      if h is sold
//
// The conditions on set membership make every transition happen at most once per hold id `h`.

const NOT_YET = 'NOT contains(#holds, :hold) AND NOT contains(#sales, :hold)';

/** `condition` only while the day has room for `bottles` under `limit` (none: always). */
function withinLimit(limit: number | undefined, condition: string): string {
  // DynamoDB's conditions cannot add, so "taken + n <= limit" is written "taken <= limit - n".
  return limit === undefined
    ? condition
    : `(attribute_not_exists(#taken) OR #taken <= :maxBefore) AND ${condition}`;
}

function holdValues(hold: string, bottles: number, limit?: number | undefined): CapacityChange['values'] {
  return {
    ':n': bottles,
    ':hold': hold,
    ':holdSet': new Set([hold]),
    ...(limit !== undefined && { ':maxBefore': limit - bottles }),
  };
}

/** Reserve: the hold's bottles taken on the day, when it has room and the hold is new there. */
export function reserveChange(hold: string, bottles: number, limit: number | undefined): CapacityChange {
  return {
    update: 'ADD #taken :n, #holds :holdSet',
    condition: withinLimit(limit, NOT_YET),
    values: holdValues(hold, bottles, limit),
  };
}

/** Sell late: sold without a hold (it lapsed, or is on another day); within `limit` when given. */
export function sellLateChange(hold: string, bottles: number, limit?: number | undefined): CapacityChange {
  return {
    update: 'ADD #taken :n, #sold :n, #sales :holdSet',
    condition: withinLimit(limit, NOT_YET),
    values: holdValues(hold, bottles, limit),
  };
}

/** Sell: the hold becomes a sale. */
export function sellChange(hold: string, bottles: number): CapacityChange {
  return {
    update: 'DELETE #holds :holdSet ADD #sold :n, #sales :holdSet',
    condition: 'contains(#holds, :hold)',
    values: holdValues(hold, bottles),
  };
}

/** Release: the hold's bottles back to the day. */
export function releaseChange(hold: string, bottles: number): CapacityChange {
  return releaseFrom('#holds', hold, bottles);
}

/** A hold taken out of `set` (a checkout's holds or the standing orders'), its bottles back to the day. */
function releaseFrom(set: '#holds' | '#standing', hold: string, bottles: number): CapacityChange {
  return {
    update: `DELETE ${set} :holdSet ADD #taken :minus`,
    condition: `contains(${set}, :hold)`,
    values: { ':hold': hold, ':holdSet': new Set([hold]), ':minus': -bottles },
  };
}

/** Give back: a sale's bottles back to the day. */
export function giveBackChange(hold: string, bottles: number): CapacityChange {
  return {
    update: 'DELETE #sales :holdSet ADD #sold :minus, #taken :minus',
    condition: 'contains(#sales, :hold)',
    values: { ':hold': hold, ':holdSet': new Set([hold]), ':minus': -bottles },
  };
}

/** A hold moving to another id without letting go: first `to` joins `from`, then `from` leaves. */
export function transferChanges(from: string, to: string): [join: CapacityChange, leave: CapacityChange] {
  const values = { ':from': from, ':fromSet': new Set([from]), ':to': to, ':toSet': new Set([to]) };
  return [
    {
      update: 'ADD #holds :toSet',
      condition: 'contains(#holds, :from) AND NOT contains(#holds, :to) AND NOT contains(#sales, :to)',
      values,
    },
    {
      update: 'DELETE #holds :fromSet',
      condition: 'contains(#holds, :from) AND contains(#holds, :to)',
      values,
    },
  ];
}

/**
 * Part of a sale given back: what is left joins with the counters lowered, then the old sale leaves (one
 * update cannot add and delete in one set).
 */
export function partGiveBackChanges(
  hold: string,
  next: string,
  bottles: number,
): [lower: CapacityChange, leave: CapacityChange] {
  return [
    {
      update: 'ADD #sales :nextSet, #sold :minus, #taken :minus',
      condition: 'contains(#sales, :hold) AND NOT contains(#sales, :next)',
      values: { ':hold': hold, ':next': next, ':nextSet': new Set([next]), ':minus': -bottles },
    },
    {
      update: 'DELETE #sales :holdSet',
      condition: 'contains(#sales, :hold) AND contains(#sales, :next)',
      values: { ':hold': hold, ':next': next, ':holdSet': new Set([hold]) },
    },
  ];
}

// A standing order's coming delivery (ADR 0060) holds its bottles in `standing` as
// `<subscription id>:<bottles>`, counted in `taken` like a checkout's hold, so the one-off
// reservation's condition above sees them without a word more. No limit: the standing order came
// first (its room was checked before its first payment), and what it holds is what it will buy.
//
//   hold standing:    ADD taken n, standing {h}                         if h is not there
//   release standing: DELETE standing {h}, ADD taken -n                 if h is there
//   sell standing:    DELETE standing {h}, ADD sold m, sales {s}, taken m - n
//                                                      if h is there and s neither held nor sold

/** Hold standing: a standing order's bottles on a coming delivery's day. */
export function holdStandingChange(hold: string, bottles: number): CapacityChange {
  return {
    update: 'ADD #taken :n, #standing :holdSet',
    condition: 'NOT contains(#standing, :hold)',
    values: holdValues(hold, bottles),
  };
}

/** Release standing: the day is no longer one of the standing order's coming deliveries. */
export function releaseStandingChange(hold: string, bottles: number): CapacityChange {
  return releaseFrom('#standing', hold, bottles);
}

/** A paid delivery's standing hold becomes its sale in one write (`taken` by the difference): never both. */
export function sellStandingChange(
  standing: string,
  sale: string,
  bottles: number,
  held: number,
): CapacityChange {
  return {
    update: 'DELETE #standing :standingSet ADD #sold :n, #sales :holdSet, #taken :delta',
    condition:
      'contains(#standing, :standing) AND NOT contains(#holds, :hold) AND NOT contains(#sales, :hold)',
    values: {
      ...holdValues(sale, bottles),
      ':standing': standing,
      ':standingSet': new Set([standing]),
      ':delta': bottles - held,
    },
  };
}
