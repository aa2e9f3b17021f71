import { useCallback, useEffect, useState } from 'react';
import type { STANDING_ORDER_VIEW_STATUSES } from '../../../../shared/admin-requests';
import type { AdminStandingOrderView } from '../../../../shared/admin-responses';
import { formatGbp } from '../../../../shared/pricing';
import type { AdminApi } from './admin-api';
import { bottlesText, formatDay, formatInstant } from './admin-format';
import { Detail, type Loadable, Loaded, SelectField, StatusTag } from './admin-ui';
import { ConfirmedAction } from './confirmed-action';
import { useAdminAction } from './use-admin-action';

type Status = (typeof STANDING_ORDER_VIEW_STATUSES)[number];

/** The status filter's choices: all, or one status. */
const SHOW: readonly { value: Status | ''; words: string }[] = [
  { value: '', words: 'All' },
  { value: 'active', words: 'Active' },
  { value: 'paused', words: 'Paused' },
  { value: 'cancelled', words: 'Cancelled' },
];

const REPEAT_WORDS: Record<AdminStandingOrderView['repeat'], string> = {
  weekly: 'every week',
  fortnightly: 'every 2 weeks',
};

const PAUSED_BY: Record<'customer' | 'shop', string> = {
  customer: 'by the customer',
  shop: "by the shop's pause",
};

/**
 * The standing orders (issue 50): each with its customer, bottles, repeat, next delivery and next
 * payment, by next delivery; a status filter; and a cancel that asks first.
 */
export function StandingOrdersView({ api }: { api: AdminApi }) {
  const [status, setStatus] = useState<Status | ''>('');
  const [loaded, setLoaded] = useState<Loadable<{ orders: AdminStandingOrderView[] }>>(undefined);

  const load = useCallback(async () => {
    const answer = await api.standingOrders({ sort: 'next', ...(status && { status }) });
    return answer.ok ? { orders: answer.value.standingOrders } : { failed: answer.message };
  }, [api, status]);

  useEffect(() => {
    // Only the latest filter's answer is shown.
    let active = true;
    setLoaded(undefined);
    void load().then((answer) => {
      if (active) setLoaded(answer);
    });
    return () => {
      active = false;
    };
  }, [load]);

  const reload = useCallback(async () => setLoaded(await load()), [load]);

  return (
    <section className="admin-view" aria-labelledby="admin-standing-heading">
      <h1 id="admin-standing-heading">Standing orders</h1>
      <div className="card">
        <SelectField label="Show" error={undefined} value={status} options={SHOW} onChange={setStatus} />
        <p className="field__hint">
          Pausing the shop pauses every standing order's payments until you resume it.
        </p>
      </div>
      <Loaded loaded={loaded}>
        {({ orders }) =>
          orders.length === 0 ? (
            <p className="card">No standing orders{status ? ` ${status}` : ''}.</p>
          ) : (
            <ul className="admin-records" aria-label="Standing orders">
              {orders.map((order) => (
                <li key={order.subscriptionId} className="card admin-standing">
                  <StandingOrder api={api} order={order} onCancelled={reload} />
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  );
}

function StandingOrder({
  api,
  order,
  onCancelled,
}: {
  api: AdminApi;
  order: AdminStandingOrderView;
  onCancelled: () => Promise<void>;
}) {
  const action = useAdminAction();
  const cancel = async () => {
    const answer = await action.run(
      (options) => api.cancelStandingOrder({ subscriptionId: order.subscriptionId }, options),
      (result) =>
        result.changed
          ? `Cancelled: no more payments or deliveries for ${result.standingOrder.customerName}. ${result.email === 'sent' ? `Email sent to ${result.standingOrder.customerEmail}.` : 'Their email is sent once, by whichever path sends it first.'}`
          : 'It was already cancelled; nothing changed.',
    );
    if (answer !== undefined) await onCancelled();
  };
  const paused = order.pausedBy?.map((by) => PAUSED_BY[by]).join(' and ');
  return (
    <>
      <h2>
        {order.customerName} <StatusTag status={order.status} />
      </h2>
      <p>
        {bottlesText(order.bottles)} {REPEAT_WORDS[order.repeat]} · {formatGbp(order.totalPence)} a delivery
      </p>
      <dl className="admin-details">
        <Detail label="Email">
          <a href={`mailto:${order.customerEmail}`}>{order.customerEmail}</a>
        </Detail>
        <Detail label="Next delivery">
          {order.nextDelivery === undefined ? 'None coming' : formatDay(order.nextDelivery)}
        </Detail>
        {order.nextPaymentAt !== undefined && (
          <Detail label="Next payment">{formatInstant(order.nextPaymentAt)}</Detail>
        )}
        {paused !== undefined && <Detail label="Paused">{paused}: no payment taken</Detail>}
        <Detail label="Reference">{order.reference}</Detail>
      </dl>
      {order.status !== 'cancelled' || action.report !== undefined ? (
        <ConfirmedAction
          className="admin-list"
          action={action}
          label="Cancel standing order"
          question={`Cancel ${order.customerName}'s standing order? No more payments or deliveries; ${order.customerEmail} is emailed once. A delivery already paid still goes.`}
          confirmLabel="Cancel it"
          pendingLabel="Cancelling…"
          onConfirm={cancel}
          finished={order.status === 'cancelled'}
          danger
        />
      ) : null}
    </>
  );
}
