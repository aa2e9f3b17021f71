import { useState } from 'react';
import type { AdminOrderView, AdminRecordView } from '../../../../shared/admin-responses';
import { formatReference } from '../../../../shared/order-reference';
import { formatGbp } from '../../../../shared/pricing';
import type { AdminApi } from './admin-api';
import { bottlesText, formatInstant } from './admin-format';
import { ActionReportView, AdminField, CardForm, ReasonField } from './admin-ui';
import { ConfirmedAction } from './confirmed-action';
import { useAdminAction } from './use-admin-action';

/** What each section of an order's page is given: the API, its record, and where the new state goes. */
export interface RecordSectionProps<R extends AdminRecordView> {
  api: AdminApi;
  order: R;
  onUpdate: (record: AdminRecordView) => void;
}

/** A dispatched order's tracking number, added or corrected: the customer gets one short update. */
export function TrackingSection({ api, order, onUpdate }: RecordSectionProps<AdminOrderView>) {
  const action = useAdminAction();
  const [tracking, setTracking] = useState('');
  const reference = formatReference(order.reference);
  const save = async () => {
    const answer = await action.run(
      (options) => api.tracking({ reference: order.reference, trackingNumber: tracking }, options),
      (result) =>
        result.changed
          ? `Tracking number of ${reference} is now ${result.record.trackingNumber ?? ''}. ${result.email === 'sent' ? `Update email sent to ${result.record.customerEmail}.` : 'No update email sent.'}`
          : `${reference} already has tracking number ${result.record.trackingNumber ?? ''}: nothing sent.`,
    );
    if (answer !== undefined) {
      setTracking('');
      onUpdate(answer.record);
    }
  };
  return (
    <CardForm aria-labelledby="admin-dispatch-heading" onSubmit={save}>
      <h2 id="admin-dispatch-heading">Dispatch</h2>
      <p>
        Dispatched {order.dispatchedAt ? formatInstant(order.dispatchedAt) : ''}
        {order.trackingNumber ? `, tracking ${order.trackingNumber}` : ', no tracking number yet'}.
      </p>
      <AdminField
        label={order.trackingNumber ? 'Correct tracking number' : 'Add tracking number'}
        hint="The customer gets one short email with the new number."
        error={action.fieldError('trackingNumber')}
      >
        {(props) => (
          <input
            {...props}
            value={tracking}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            onChange={(event) => setTracking(event.target.value)}
          />
        )}
      </AdminField>
      <button
        type="submit"
        className="button button--primary"
        disabled={action.pending || tracking.trim() === ''}
      >
        {action.pending ? 'Saving…' : 'Save tracking number'}
      </button>
      <ActionReportView report={action.report} />
    </CardForm>
  );
}

const REASONS = { doa: 'Arrived dead', supply: 'Supply problem', other: 'Other' } as const;
type Reason = keyof typeof REASONS;

/**
 * Refunds part of an order: some bottles, the delivery, or both, with a reason; again later, up to
 * what was paid. The amount is shown before the second press that sends it.
 */
export function PartRefundSection({ api, order, onUpdate }: RecordSectionProps<AdminOrderView>) {
  const parts = order.partRefunds ?? [];
  const bottlesLeft = order.bottles - parts.reduce((sum, part) => sum + part.bottles, 0);
  const deliveryLeft = !parts.some((part) => part.delivery);
  const { action, bottles, setBottles, delivery, setDelivery, reason, setReason, pence, refund } =
    usePartRefund(api, order, onUpdate);
  const reference = formatReference(order.reference);
  // The API's refusal of the same part as one refunded minutes ago (the CLI's --again).
  const repeatRefused =
    action.report?.kind === 'refused' &&
    action.report.message.includes('To refund the same again on purpose');

  return (
    <ConfirmedAction
      action={action}
      aria-labelledby="admin-part-refund-heading"
      heading={<h2 id="admin-part-refund-heading">Refund part of {reference}</h2>}
      label={`Refund ${formatGbp(pence)}`}
      question={`Refund ${formatGbp(pence)} to ${order.customerName}? Stripe sends it back to their card.`}
      confirmLabel={`Confirm refund of ${formatGbp(pence)}`}
      pendingLabel="Refunding…"
      onConfirm={() => refund()}
      disabled={pence === 0 || reason === undefined}
      primary
    >
      {parts.length > 0 && <PartRefundList parts={parts} />}
      <AdminField
        label="Bottles to refund"
        hint={`${bottlesLeft} not refunded yet`}
        error={action.fieldError('bottles')}
      >
        {(props) => (
          <select {...props} value={bottles} onChange={(event) => setBottles(Number(event.target.value))}>
            {[...Array(bottlesLeft + 1).keys()].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        )}
      </AdminField>
      {deliveryLeft && (
        <label className="admin-check">
          <input type="checkbox" checked={delivery} onChange={(event) => setDelivery(event.target.checked)} />{' '}
          Refund the delivery too ({formatGbp(order.shippingPence)})
        </label>
      )}
      <ReasonField reasons={REASONS} value={reason} onChange={setReason} action={action} />
      {repeatRefused && (
        <button
          type="button"
          className="button button--danger"
          disabled={action.pending}
          onClick={() => {
            // Another intention than the refused one: its own key.
            action.ask();
            void refund(true);
          }}
        >
          Refund again on purpose
        </button>
      )}
    </ConfirmedAction>
  );
}

/** The part refund being chosen (bottles, delivery, reason) and the refund of it, which clears the choice. */
function usePartRefund(api: AdminApi, order: AdminOrderView, onUpdate: (record: AdminRecordView) => void) {
  const action = useAdminAction();
  const [bottles, setBottles] = useState(0);
  const [delivery, setDelivery] = useState(false);
  // No reason chosen for the merchant: the customer's email says it ("did not arrive in good condition").
  const [reason, setReason] = useState<Reason | undefined>(undefined);
  // The page's figure to confirm; the server prices the refund itself from the order.
  const pence = bottles * order.unitPricePence + (delivery ? order.shippingPence : 0);
  const refund = async (again = false) => {
    if (reason === undefined) return;
    const answer = await action.run(
      (options) =>
        api.refundPart(
          { reference: order.reference, bottles, delivery, reason, ...(again && { again: true }) },
          options,
        ),
      (result) =>
        `${formatGbp(result.pence)} refunded to ${result.record.customerName} (${result.refundId}); ${formatGbp(result.record.partlyRefundedPence ?? result.pence)} of ${formatGbp(result.record.totalPence)} refunded in all. ${result.email === 'sent' ? `Refund email sent to ${result.record.customerEmail}.` : 'No refund email sent again.'}`,
    );
    if (answer !== undefined) {
      setBottles(0);
      setDelivery(false);
      setReason(undefined);
      onUpdate(answer.record);
    }
  };
  return { action, bottles, setBottles, delivery, setDelivery, reason, setReason, pence, refund };
}

/** The part refunds made so far: when, how much, for what and why. */
function PartRefundList({ parts }: { parts: NonNullable<AdminOrderView['partRefunds']> }) {
  return (
    <ul className="admin-lines" aria-label="Part refunds">
      {parts.map((part) => (
        <li key={part.refundId}>
          {formatInstant(part.at)}: {formatGbp(part.pence)} for{' '}
          {[part.bottles > 0 ? bottlesText(part.bottles) : '', part.delivery ? 'the delivery' : '']
            .filter(Boolean)
            .join(' and ')}{' '}
          ({part.reason})
        </li>
      ))}
    </ul>
  );
}
