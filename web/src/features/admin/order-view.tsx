import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  type AdminOrderView,
  type AdminRecordView,
  type AdminRequestView,
  adminDispatchResponseSchema,
} from '../../../../shared/admin-responses';
import { formatReference } from '../../../../shared/order-reference';
import { formatGbp } from '../../../../shared/pricing';
import type { AdminApi } from './admin-api';
import { bottlesText, emailLine, formatDay, formatInstant } from './admin-format';
import {
  ActionReportView,
  AdminField,
  CardForm,
  Detail,
  emailWording,
  type Loadable,
  Loaded,
  ReasonField,
  StatusTag,
  TextInputField,
} from './admin-ui';
import { ConfirmedAction } from './confirmed-action';
import { EarlyDispatchQuestion, type PlannedLater, plannedLater, withRefusals } from './dispatch-answer';
import { PartRefundSection, type RecordSectionProps, TrackingSection } from './order-after-dispatch';
import { useAdminAction } from './use-admin-action';

/** One order or request: what the customer gave, the emails, the payment, its history and its actions. */
export function OrderView({ api, reference }: { api: AdminApi; reference: string }) {
  const [loaded, setLoaded] = useState<Loadable<{ record: AdminRecordView }>>(undefined);
  useEffect(() => {
    let active = true;
    void api.order({ reference }).then((answer) => {
      if (active) setLoaded(answer.ok ? { record: answer.value.record } : { failed: answer.message });
    });
    return () => {
      active = false;
    };
  }, [api, reference]);
  const update = (record: AdminRecordView) => setLoaded({ record });

  return (
    <section className="admin-view" aria-labelledby="admin-order-heading">
      <p>
        <Link to="/admin?view=orders">All orders &amp; requests</Link>
      </p>
      <h1 id="admin-order-heading">
        {loaded !== undefined && 'record' in loaded
          ? `${loaded.record.kind === 'order' ? 'Order' : 'Request'} ${formatReference(loaded.record.reference)}`
          : // The address may carry the reference in any case: the record's own spelling once loaded.
            formatReference(reference)}
      </h1>
      <Loaded loaded={loaded}>
        {({ record }) => <RecordDetails api={api} record={record} onUpdate={update} />}
      </Loaded>
    </section>
  );
}

function RecordDetails({
  api,
  record,
  onUpdate,
}: {
  api: AdminApi;
  record: AdminRecordView;
  onUpdate: (record: AdminRecordView) => void;
}) {
  return (
    <>
      <div className="card">
        <p>
          <StatusTag status={record.status} /> {bottlesText(record.bottles)} · {formatGbp(record.totalPence)}{' '}
          · dispatch {formatDay(record.dispatchDate)}
        </p>
        <dl className="admin-details">
          <Detail label="Name">{record.customerName}</Detail>
          <Detail label="Email">
            <a href={`mailto:${record.customerEmail}`}>{record.customerEmail}</a>
          </Detail>
          <Detail label="Phone">{record.customerPhone || 'Not given'}</Detail>
          <Detail label="Delivery address" className="admin-address">
            {record.deliveryAddress}
          </Detail>
          <Detail label="Postcode">{record.postcode}</Detail>
        </dl>
        {record.kind === 'order' && record.status === 'paid' && (
          <AddressSection api={api} order={record} onUpdate={onUpdate} />
        )}
      </div>
      {/* The actions next, within two phone screens: the payment's facts, emails and history follow. */}
      {record.kind === 'order' ? (
        <>
          <OrderActions api={api} order={record} onUpdate={onUpdate} />
          <PageLinkSection api={api} order={record} onUpdate={onUpdate} />
        </>
      ) : (
        <RequestActions api={api} order={record} onUpdate={onUpdate} />
      )}
      <div className="card">
        <h2>{record.kind === 'order' ? 'Payment' : 'Request'}</h2>
        <dl className="admin-details">
          <Detail label="Price">
            {bottlesText(record.bottles)} × {formatGbp(record.unitPricePence)} ={' '}
            {formatGbp(record.subtotalPence)}, delivery {formatGbp(record.shippingPence)}, total{' '}
            {formatGbp(record.totalPence)}
          </Detail>
          {record.kind === 'order' ? <OrderFacts order={record} /> : <RequestFacts request={record} />}
        </dl>
      </div>
      <EmailsCard emails={record.emails} />
      <HistoryCard history={record.history} />
    </>
  );
}

/** The emails sent about it, each with when. */
function EmailsCard({ emails }: { emails: AdminRecordView['emails'] }) {
  return (
    <div className="card">
      <h2>Emails</h2>
      {emails.length === 0 ? (
        <p className="hint">No emails yet.</p>
      ) : (
        <ul className="admin-lines">
          {emails.map((email) => (
            <li key={email.kind}>{emailLine(email)}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** What was done to it, when and by whom. */
function HistoryCard({ history }: { history: AdminRecordView['history'] }) {
  return (
    <div className="card">
      <h2>History</h2>
      {history.length === 0 ? (
        <p className="hint">No history kept for this one.</p>
      ) : (
        <ol className="admin-lines">
          {history.map((entry) => (
            <li key={`${entry.at}-${entry.action}`}>
              {formatInstant(entry.at)}: {entry.action}
              {entry.detail ? ` (${entry.detail})` : ''} by {entry.actor}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function OrderFacts({ order }: { order: AdminOrderView }) {
  return (
    <>
      <Detail label="Paid">{formatInstant(order.paidAt)}</Detail>
      {order.promisedDispatchDate && order.promisedDispatchDate !== order.dispatchDate && (
        <Detail label="Promised dispatch">{formatDay(order.promisedDispatchDate)}</Detail>
      )}
      {order.placedWhilePaused && (
        <Detail label="Note">
          Paid while the shop was {order.pausedMode === 'requests' ? 'taking requests' : 'paused'}
        </Detail>
      )}
      {order.dispatchedAt && (
        <Detail label="Dispatched">
          {formatInstant(order.dispatchedAt)}
          {order.trackingNumber ? `, tracking ${order.trackingNumber}` : ''}
        </Detail>
      )}
      {order.partlyRefundedPence !== undefined && order.partlyRefundedPence > 0 && (
        <Detail label="Refunded in part">
          {formatGbp(order.partlyRefundedPence)} of {formatGbp(order.totalPence)}
        </Detail>
      )}
      {order.refundedAt && (
        <Detail label="Refunded">
          {formatInstant(order.refundedAt)}
          {order.refundReason ? ` (${order.refundReason})` : ''}
        </Detail>
      )}
      <Detail label="Payment">
        <a href={order.payment.dashboardUrl} target="_blank" rel="noreferrer">
          Open in the Stripe Dashboard
        </a>
      </Detail>
    </>
  );
}

function RequestFacts({ request }: { request: AdminRequestView }) {
  return (
    <>
      <Detail label="Asked">{formatInstant(request.createdAt)}</Detail>
      {request.holdsUntil && (
        <Detail label="Bottles">Holds until {formatInstant(request.holdsUntil)}, then back on sale</Detail>
      )}
      {request.paymentLink && (
        <Detail label="Payment link">Sent, valid until {formatInstant(request.paymentLink.expiresAt)}</Detail>
      )}
    </>
  );
}

const REFUND_REASONS = { supply: 'Supply problem', doa: 'Arrived dead', other: 'Other' } as const;
type RefundReason = keyof typeof REFUND_REASONS;

function OrderActions({ api, order, onUpdate }: RecordSectionProps<AdminOrderView>) {
  const { action: refundAction, reason, setReason, refund } = useFullRefund(api, order, onUpdate);
  const refunded = order.status === 'refunded';
  // After part refunds the button names what is left, the amount Stripe will refund.
  const refundWhat =
    order.refundablePence < order.totalPence
      ? `the remaining ${formatGbp(order.refundablePence)}`
      : formatGbp(order.refundablePence);
  if (refunded && refundAction.report === undefined) return null;
  return (
    <>
      <DispatchSection api={api} order={order} onUpdate={onUpdate} />
      {order.status === 'dispatched' && <TrackingSection api={api} order={order} onUpdate={onUpdate} />}
      {!refunded && <PartRefundSection api={api} order={order} onUpdate={onUpdate} />}
      <ConfirmedAction
        action={refundAction}
        aria-labelledby="admin-refund-heading"
        heading={<h2 id="admin-refund-heading">Refund</h2>}
        label="Refund…"
        question={`Refund ${refundWhat} to ${order.customerName} (${order.customerEmail})? This cannot be undone.`}
        confirmLabel={`Refund ${refundWhat}`}
        pendingLabel="Refunding…"
        onConfirm={refund}
        disabled={reason === undefined}
        finished={refunded}
        danger
      >
        <ReasonField reasons={REFUND_REASONS} value={reason} onChange={setReason} action={refundAction} />
      </ConfirmedAction>
    </>
  );
}

/** The whole order refunded (what is left after part refunds), with the reason the email gives. */
function useFullRefund(api: AdminApi, order: AdminOrderView, onUpdate: (record: AdminRecordView) => void) {
  const action = useAdminAction();
  // No reason chosen for the merchant: the customer's email says it.
  const [reason, setReason] = useState<RefundReason | undefined>(undefined);
  const reference = formatReference(order.reference);
  const refund = async () => {
    if (reason === undefined) return;
    const answer = await action.run(
      (options) => api.refund({ reference: order.reference, reason }, options),
      (result) => {
        const emailed =
          result.refundEmail.state === 'sent'
            ? result.refundEmail.by === 'this run'
              ? `Refund email sent to ${result.record.customerEmail}.`
              : `Refund email sent by ${result.refundEmail.by}.`
            : `Refund email ${result.refundEmail.state}.`;
        return result.changed
          ? `${formatGbp(result.pence)} refunded to ${result.record.customerName} (${result.refundId}). ${emailed}`
          : `${reference} was already refunded (${result.refundId}): nothing changed. ${emailed}`;
      },
    );
    if (answer !== undefined) onUpdate(answer.record);
  };
  return { action, reason, setReason, refund };
}

/** "Mark dispatched" while paid; its result keeps a card of its own once the order has moved on. */
function DispatchSection({ api, order, onUpdate }: RecordSectionProps<AdminOrderView>) {
  const { action, tracking, setTracking, early, setEarly, dispatch } = useDispatch(api, order, onUpdate);
  if (order.status !== 'paid') {
    return action.report ? (
      <div className="card">
        <ActionReportView report={action.report} onDismiss={action.clear} />
      </div>
    ) : null;
  }
  return (
    <CardForm onSubmit={() => dispatch(false)}>
      <h2>Dispatch</h2>
      <TextInputField
        label="Tracking number (optional)"
        error={action.fieldError('trackingNumber')}
        value={tracking}
        onChange={setTracking}
      />
      <button type="submit" className="button button--primary" disabled={action.pending}>
        {action.pending ? 'Marking dispatched…' : 'Mark dispatched'}
      </button>
      <ActionReportView report={action.report} />
      {early.length > 0 && (
        <EarlyDispatchQuestion
          planned={early}
          pending={action.pending}
          onConfirm={() => void dispatch(true)}
          onCancel={() => setEarly([])}
        />
      )}
    </CardForm>
  );
}

/** The dispatch of one order; a first press that finds bottles planned later leaves them to ask about. */
function useDispatch(api: AdminApi, order: AdminOrderView, onUpdate: (record: AdminRecordView) => void) {
  const action = useAdminAction();
  const [tracking, setTracking] = useState('');
  const [early, setEarly] = useState<PlannedLater[]>([]);
  const reference = formatReference(order.reference);
  const dispatch = async (sendEarly: boolean) => {
    setEarly([]);
    const answer = await action.run(
      async (options) =>
        withRefusals(
          await api.dispatch(
            {
              references: [order.reference],
              ...(tracking.trim() && { trackingNumber: tracking.trim() }),
              ...(sendEarly && { early: true }),
            },
            options,
          ),
          adminDispatchResponseSchema,
        ),
      ({ results }) => {
        const [result] = results;
        if (result === undefined) return 'Nothing was changed.';
        if ('refused' in result) return result.refused;
        return result.changed
          ? `${reference} marked dispatched. ${emailWording(result.email, 'Dispatch', result.record.customerEmail)}`
          : `${reference} was already dispatched: nothing changed. ${emailWording(result.email, 'Dispatch', result.record.customerEmail)}`;
      },
    );
    const [result] = answer?.results ?? [];
    if (result !== undefined && 'record' in result) onUpdate(result.record);
    if (sendEarly) return;
    const planned = plannedLater(answer?.results ?? []);
    // The early question is a new intention: its Confirm gets a key of its own.
    if (planned.length > 0) action.ask();
    setEarly(planned);
  };
  return { action, tracking, setTracking, early, setEarly, dispatch };
}

/**
 * The delivery details' correction, folded (open, it filled most of a phone's screen). The rules and
 * cut-off are the API's; it asks first, since the customer gets an email. Its result stays until dismissed.
 */
function AddressSection({ api, order, onUpdate }: RecordSectionProps<AdminOrderView>) {
  const { action, open, setOpen, address, setAddress, postcode, setPostcode, phone, setPhone, save } =
    useAddressCorrection(api, order, onUpdate);
  const reference = formatReference(order.reference);
  if (!open) {
    return (
      <div className="admin-list">
        <button
          type="button"
          className="button button--secondary"
          onClick={() => {
            action.clear();
            setOpen(true);
          }}
        >
          Correct the address
        </button>
        <ActionReportView report={action.report} onDismiss={action.clear} />
      </div>
    );
  }
  const newDetails = [address.trim().replace(/\s*\n\s*/g, ', '), postcode.trim(), phone.trim()]
    .filter(Boolean)
    .join(', ');
  return (
    <ConfirmedAction
      action={action}
      className="admin-bulk"
      aria-labelledby="admin-address-heading"
      heading={<h2 id="admin-address-heading">Correct the delivery details</h2>}
      label="Correct delivery details"
      question={`Change the delivery details of ${reference} to ${newDetails}? ${order.customerName} (${order.customerEmail}) is emailed the new details.`}
      confirmLabel="Confirm and email"
      pendingLabel="Saving…"
      onConfirm={save}
    >
      <AdminField label="New address" error={action.fieldError('address')}>
        {(props) => (
          <textarea
            {...props}
            rows={3}
            value={address}
            autoComplete="off"
            onChange={(e) => setAddress(e.target.value)}
          />
        )}
      </AdminField>
      <TextInputField
        label="New postcode"
        error={action.fieldError('postcode')}
        value={postcode}
        onChange={setPostcode}
      />
      <TextInputField
        label="New phone (optional)"
        error={action.fieldError('phone')}
        value={phone}
        onChange={setPhone}
        type="tel"
      />
      <button type="button" className="button button--secondary" onClick={() => setOpen(false)}>
        Close without changing
      </button>
    </ConfirmedAction>
  );
}

/** The corrected delivery details being typed, and their saving, which folds the form again. */
function useAddressCorrection(
  api: AdminApi,
  order: AdminOrderView,
  onUpdate: (record: AdminRecordView) => void,
) {
  const action = useAdminAction();
  const [open, setOpen] = useState(false);
  const [address, setAddress] = useState(order.deliveryAddress);
  const [postcode, setPostcode] = useState(order.postcode);
  const [phone, setPhone] = useState(order.customerPhone);
  const reference = formatReference(order.reference);
  const save = async () => {
    const answer = await action.run(
      (options) => api.address({ reference: order.reference, address, postcode, phone }, options),
      (result) =>
        result.changed
          ? `Delivery details of ${reference} corrected. ${result.email === 'not-due' ? '' : emailWording(result.email, 'Confirmation', result.record.customerEmail)}`
          : `Those are already the delivery details of ${reference}: nothing changed.`,
    );
    if (answer !== undefined) {
      setOpen(false);
      onUpdate(answer.record);
    }
  };
  return { action, open, setOpen, address, setAddress, postcode, setPostcode, phone, setPhone, save };
}

/** Revokes the order page link (a forwarded email): in every status, as a leaked link must stop working. */
function PageLinkSection({ api, order, onUpdate }: RecordSectionProps<AdminOrderView>) {
  const action = useAdminAction();
  const reference = formatReference(order.reference);
  const revoke = async () => {
    const answer = await action.run(
      (options) => api.revokePageLink({ reference: order.reference }, options),
      // Each revoke makes a new email due, so `not-sent` is never "already sent": another request
      // holds it. The merchant learns the customer may not have the new link yet, and what to do.
      (result) =>
        `The old order page link of ${reference} no longer opens. ${
          result.email === 'sent'
            ? emailWording(result.email, 'New link', result.record.customerEmail)
            : "The new link email was not sent by this request (another is sending it): the order's emails below say when it has gone; if it does not, revoke again."
        }`,
    );
    if (answer !== undefined) onUpdate(answer.record);
  };
  return (
    <ConfirmedAction
      action={action}
      heading={<h2>Order page link</h2>}
      label="Revoke link…"
      question={`Revoke the order page link of ${reference}? The link in every email sent so far stops working, and ${order.customerName} (${order.customerEmail}) is emailed a new one.`}
      confirmLabel="Revoke and send a new link"
      pendingLabel="Revoking…"
      onConfirm={revoke}
      danger
    />
  );
}

function RequestActions({ api, order: request, onUpdate }: RecordSectionProps<AdminRequestView>) {
  const action = useAdminAction();
  const reference = formatReference(request.reference);
  const reload = async () => {
    const answer = await api.order({ reference: request.reference });
    if (answer.ok) onUpdate(answer.value.record);
  };
  const sendLink = async () => {
    const answer = await action.run(
      (options) => api.requestPayment({ reference: request.reference }, options),
      (result) =>
        `Payment link for ${reference} ${result.changed ? 'made' : 'already made'}, valid until ${formatInstant(result.expiresAt)}. ${emailWording(result.email, 'Payment link', request.customerEmail)}`,
    );
    if (answer !== undefined) await reload();
  };
  const decline = async () => {
    const answer = await action.run(
      (options) => api.decline({ reference: request.reference }, options),
      (result) =>
        `${reference} ${result.changed ? 'declined' : 'was already declined'}. ${result.withheld === undefined ? emailWording(result.email, 'Decline', request.customerEmail) : `No email: ${result.withheld}.`}`,
    );
    if (answer !== undefined) await reload();
  };
  if (request.status === 'declined' && action.report === undefined) return null;
  return (
    <div className="card">
      <h2>Answer the request</h2>
      <div className="admin-actions">
        <button type="button" className="button button--primary" disabled={action.pending} onClick={sendLink}>
          Send payment link
        </button>
        <button
          type="button"
          className="button button--secondary"
          disabled={action.pending}
          onClick={decline}
        >
          Decline
        </button>
      </div>
      <ActionReportView report={action.report} />
    </div>
  );
}
