import { invalidRequest, resourceMissing } from './errors';
import type { PaginationInput } from './list-params';
import { paymentIntentOf, type SessionStore, type StoredSession } from './session-store';
import type { CheckoutSessionJson, CheckoutSessionRecord, LineItemRecord, ListRecord } from './session-types';

/** The expansions the simulator can answer; Stripe has more, and asking for one of those is refused loudly. */
const SESSION_EXPANSIONS = ['line_items', 'line_items.data.price.product', 'payment_intent'];
const LINE_ITEM_EXPANSIONS = ['data.price.product'];

/** Refuses expansions the simulator cannot answer (for lists each path starts with `data.`). */
export function checkExpand(expand: string[], kind: 'session' | 'session list' | 'line item list'): void {
  const allowed =
    kind === 'session'
      ? SESSION_EXPANSIONS
      : kind === 'session list'
        ? SESSION_EXPANSIONS.map((path) => `data.${path}`)
        : LINE_ITEM_EXPANSIONS;
  expand.forEach((path, index) => {
    if (!allowed.includes(path)) {
      throw invalidRequest(`This property cannot be expanded (${path}).`, { param: `expand[${index}]` });
    }
  });
}

/** A session as the API answers it: `line_items` and `payment_intent` only as far as `expand` asks. */
export function sessionJson(
  store: SessionStore,
  entry: StoredSession,
  expand: string[],
): CheckoutSessionJson {
  const { line_items: lineItems, ...session } = entry.record;
  const json: CheckoutSessionJson = structuredClone(session);
  const paths = new Set(expand.map((path) => path.replace(/^data\./, '')));
  if (paths.has('line_items') || paths.has('line_items.data.price.product')) {
    json.line_items = {
      ...lineItems,
      data: lineItemsJson(store, lineItems.data, paths.has('line_items.data.price.product')),
    };
  }
  if (paths.has('payment_intent')) json.payment_intent = paymentIntentOf(entry);
  return json;
}

/** The session inside an event: a snapshot taken now, and like Stripe's, never with `line_items`. */
export function sessionEventObject(record: CheckoutSessionRecord): CheckoutSessionJson {
  const { line_items: _lineItems, ...session } = record;
  return structuredClone(session);
}

export function lineItemsJson(
  store: SessionStore,
  items: LineItemRecord[],
  expandProduct: boolean,
): LineItemRecord[] {
  return items.map((item) => {
    const copy = structuredClone(item);
    const product = typeof copy.price.product === 'string' ? store.product(copy.price.product) : undefined;
    if (expandProduct && product !== undefined) copy.price.product = structuredClone(product);
    return copy;
  });
}

/**
 * One page of a newest-first list with Stripe's cursors, so the SDK's auto-pagination
 * (`starting_after` = last id of the previous page) walks every item exactly once.
 */
export function paginate<T extends { id: string }>(
  items: T[],
  pagination: PaginationInput,
  url: string,
  objectName: string,
): ListRecord<T> {
  const { limit, startingAfter, endingBefore } = pagination;
  const cursor = startingAfter ?? endingBefore;
  const cursorIndex = cursor === undefined ? -1 : items.findIndex((item) => item.id === cursor);
  if (cursor !== undefined && cursorIndex === -1) {
    throw resourceMissing(
      objectName,
      cursor,
      startingAfter === undefined ? 'ending_before' : 'starting_after',
      400,
    );
  }
  if (endingBefore !== undefined) {
    const before = items.slice(0, cursorIndex);
    return { object: 'list', data: before.slice(-limit), has_more: before.length > limit, url };
  }
  const after = items.slice(cursorIndex + 1);
  return { object: 'list', data: after.slice(0, limit), has_more: after.length > limit, url };
}
