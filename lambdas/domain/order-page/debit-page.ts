import { formatDispatchDate } from '../../../shared/dispatch';
import type { DebitPageView } from '../../../shared/order-page';
import { itemLine, type SellerDetails } from '../emails/common';
import {
  type OrderPageKeys,
  OrderPageNotFoundError,
  readOrderPageToken,
  samePageKey,
} from '../order-page-token';
import { hasFailedDebit, readPendingDebit } from '../storage/debit-records';
import type { ManagedOrder } from '../storage/managed-order';
import { orderKey, type ShopTable } from '../storage/orders-table';
import { getRecord } from '../storage/records';

/** What a token opens: the order, or the payment still with (or refused by) the bank. */
export type OpenedPage = { kind: 'order'; order: ManagedOrder } | { kind: 'debit'; view: DebitPageView };

/**
 * The page a token opens (ADR 0047): the order when recorded with the token's key; else the pending debit
 * holding that key (the order takes it, so the link keeps working) as "waiting for the bank", or refused once
 * it failed.
 * @throws OrderPageNotFoundError for every refusal alike, as openOrderPage.
 */
export async function openOrderOrDebitPage(
  token: string,
  deps: { table: ShopTable; keys: OrderPageKeys; seller: SellerDetails },
): Promise<OpenedPage> {
  const claim = readOrderPageToken(token, deps.keys);
  if (claim === undefined) throw new OrderPageNotFoundError();
  const record = await getRecord(deps.table, orderKey(claim.sessionId));
  if (record !== undefined) {
    if (record.kind !== 'order' || !samePageKey(record.order.pageKey, claim.pageKey)) {
      throw new OrderPageNotFoundError();
    }
    return { kind: 'order', order: record.order };
  }
  const pending = await readPendingDebit(deps.table, claim.sessionId);
  const { reference, customerName, bottles, totalPence, dispatchDate } = pending ?? {};
  if (
    pending === undefined ||
    !samePageKey(pending.pageKey, claim.pageKey) ||
    reference === undefined ||
    customerName === undefined ||
    bottles === undefined ||
    totalPence === undefined ||
    dispatchDate === undefined
  ) {
    throw new OrderPageNotFoundError();
  }
  const failed = await hasFailedDebit(deps.table, claim.sessionId);
  return {
    kind: 'debit',
    view: {
      status: failed ? 'payment-failed' : 'awaiting-payment',
      reference,
      customerName,
      item: itemLine(bottles),
      totalPence,
      dispatchDate: formatDispatchDate(dispatchDate),
      seller: { name: deps.seller.name, email: deps.seller.email, address: deps.seller.address },
    },
  };
}
