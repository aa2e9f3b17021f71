import type { IsoDate } from '../../../shared/dispatch';
import { updateIf } from './conditional-writes';
import type { ShopTable } from './orders-table';

// Steps 2 and 5 of a delayed order's bottles moving to its new day (operations/delayed-bottles.ts
// says the whole walk): the order's own marks of where its bottles count.

/** Step 2: the order's bottles start to move from `from` to `to`, its new dispatch day, if none is moving yet. */
export function startCapacityMove(table: ShopTable, pk: string, from: string, to: IsoDate): Promise<boolean> {
  return updateIf(table, pk, {
    ConditionExpression:
      'capacityDate = :from AND dispatchDate = :to AND attribute_not_exists(capacityMovingFrom)',
    UpdateExpression: 'SET capacityDate = :to, capacityMovingFrom = :from',
    ExpressionAttributeValues: { ':from': from, ':to': to },
  });
}

/** Step 5: the move from `from` to `to` is over, if it is still that move. */
export function endCapacityMove(table: ShopTable, pk: string, from: string, to: string): Promise<boolean> {
  return updateIf(table, pk, {
    ConditionExpression: 'capacityMovingFrom = :from AND capacityDate = :to',
    UpdateExpression: 'REMOVE capacityMovingFrom',
    ExpressionAttributeValues: { ':from': from, ':to': to },
  });
}
