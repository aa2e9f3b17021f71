import { useState } from 'react';
import { Link } from 'react-router-dom';
import { type AdminRecordView, adminDispatchResponseSchema } from '../../../../shared/admin-responses';
import { formatReference } from '../../../../shared/order-reference';
import { formatGbp } from '../../../../shared/pricing';
import type { AdminApi } from './admin-api';
import { bottlesText, formatDay } from './admin-format';
import { AdminField, StatusTag } from './admin-ui';
import { ConfirmedAction } from './confirmed-action';
import {
  EarlyDispatchQuestion,
  type PlannedLater,
  plannedLater,
  summariseDispatch,
  withRefusals,
} from './dispatch-answer';
import type { AdminAction } from './use-admin-action';

interface RecordListProps {
  api: AdminApi;
  records: AdminRecordView[];
  /** Called with the orders a dispatch changed, so the view can show their new state. */
  onChanged: () => void;
  /** Names the list for screen readers ("Orders for Monday 30 November"). */
  label: string;
  /** The bulk dispatch's state, kept by the view: the list remounts on reload, the result must not. */
  action: AdminAction;
}

/**
 * Orders and requests as rows; the chosen paid ones are dispatched in one call, after asking. Those
 * the API refuses as planned for a later day are asked about again, naming the day.
 */
export function RecordList({ api, records, onChanged, label, action }: RecordListProps) {
  const dispatchable = records.filter((record) => record.kind === 'order' && record.status === 'paid');
  const bulk = useBulkDispatch(api, dispatchable, onChanged, action);
  // The result and the early question stay after the list reloads, even emptied.
  const dispatchForm = (dispatchable.length > 0 ||
    action.report !== undefined ||
    bulk.early !== undefined) && (
    <BulkDispatchForm action={action} bulk={bulk} finished={dispatchable.length === 0} />
  );

  return (
    <div className="admin-list">
      {records.length === 0 ? (
        <p className="hint">Nothing here.</p>
      ) : (
        <ul className="admin-records" aria-label={label}>
          {records.map((record) => (
            <RecordRow
              key={record.reference}
              record={record}
              chosen={bulk.chosen.has(record.reference)}
              onChoose={(on) => bulk.toggle(record.reference, on)}
              tracking={bulk.tracking[record.reference] ?? ''}
              onTracking={(typed) => bulk.setTrackingOf(record.reference, typed)}
              trackingError={action.fieldError('trackingNumbers')}
            />
          ))}
        </ul>
      )}
      {dispatchForm}
    </div>
  );
}

type BulkDispatch = ReturnType<typeof useBulkDispatch>;

/** The chosen orders and their tracking numbers; those refused as planned later are kept to ask again. */
function useBulkDispatch(
  api: AdminApi,
  dispatchable: AdminRecordView[],
  onChanged: () => void,
  action: AdminAction,
) {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  // Each chosen order's tracking number as typed or scanned; a blank one is none.
  const [tracking, setTracking] = useState<Readonly<Record<string, string>>>({});
  // Refused as planned for later: asked about again, with the numbers they were sent with.
  const [early, setEarly] = useState<{ planned: PlannedLater[]; tracking: Record<string, string> }>();
  const chosenRecords = dispatchable.filter((record) => chosen.has(record.reference));

  const toggle = (reference: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(reference);
      else next.delete(reference);
      return next;
    });
  const setTrackingOf = (reference: string, typed: string) =>
    setTracking((current) => ({ ...current, [reference]: typed }));

  const send = async (references: string[], trackingNumbers: Record<string, string>, sendEarly: boolean) => {
    const answer = await action.run(
      async (options) =>
        withRefusals(
          await api.dispatch({ references, trackingNumbers, ...(sendEarly && { early: true }) }, options),
          adminDispatchResponseSchema,
        ),
      ({ results }) => summariseDispatch(results),
    );
    if (answer === undefined) return;
    const planned = sendEarly ? [] : plannedLater(answer.results);
    // The early question is a new intention: its Confirm gets a key of its own.
    if (planned.length > 0) action.ask();
    setEarly(
      planned.length === 0
        ? undefined
        : {
            planned,
            tracking: Object.fromEntries(
              Object.entries(trackingNumbers).filter(([ref]) => planned.some((p) => p.reference === ref)),
            ),
          },
    );
    setChosen(new Set());
    setTracking({});
    onChanged();
  };

  const dispatch = () => {
    const references = chosenRecords.map((record) => record.reference);
    const trackingNumbers = Object.fromEntries(
      references.flatMap((reference) => {
        const typed = tracking[reference]?.trim() ?? '';
        return typed === '' ? [] : [[reference, typed]];
      }),
    );
    setEarly(undefined);
    return send(references, trackingNumbers, false);
  };

  const sendEarly = () => {
    if (early === undefined) return;
    setEarly(undefined);
    void send(
      early.planned.map((order) => order.reference),
      early.tracking,
      true,
    );
  };
  const cancelEarly = () => setEarly(undefined);
  return { chosen, chosenRecords, toggle, tracking, setTrackingOf, early, dispatch, sendEarly, cancelEarly };
}

/** "Mark N dispatched", asked first with the customers' names, then the early question if any. */
function BulkDispatchForm({
  action,
  bulk,
  finished,
}: {
  action: AdminAction;
  bulk: BulkDispatch;
  finished: boolean;
}) {
  const names = bulk.chosenRecords.map((record) => `${record.customerName} (${record.customerEmail})`);
  const count = bulk.chosenRecords.length;
  return (
    <>
      <ConfirmedAction
        action={action}
        className="admin-bulk"
        aria-label="Mark the chosen orders dispatched"
        label={count > 0 ? `Mark ${count} dispatched` : 'Mark dispatched'}
        question={`Mark ${count} ${count === 1 ? 'order' : 'orders'} dispatched? Each customer is emailed that it is on its way: ${names.join(', ')}.`}
        confirmLabel={`Mark ${count} dispatched and email`}
        pendingLabel="Marking dispatched…"
        onConfirm={bulk.dispatch}
        disabled={count === 0}
        finished={finished}
        primary
      />
      {bulk.early !== undefined && (
        <EarlyDispatchQuestion
          planned={bulk.early.planned}
          pending={action.pending}
          onConfirm={bulk.sendEarly}
          onCancel={bulk.cancelEarly}
        />
      )}
    </>
  );
}

/** One order or request: a link to its page, its status and sums; a paid order can be chosen. */
function RecordRow({
  record,
  chosen,
  onChoose,
  tracking,
  onTracking,
  trackingError,
}: {
  record: AdminRecordView;
  chosen: boolean;
  onChoose: (on: boolean) => void;
  tracking: string;
  onTracking: (typed: string) => void;
  trackingError: string | undefined;
}) {
  const canDispatch = record.kind === 'order' && record.status === 'paid';
  return (
    <li className="admin-record">
      {canDispatch && (
        // The label is the target, 44 px square: the box itself is too small for a thumb.
        <label className="admin-record__check">
          <input
            type="checkbox"
            aria-label={`Choose ${formatReference(record.reference)} (${record.customerName})`}
            checked={chosen}
            onChange={(event) => onChoose(event.target.checked)}
          />
        </label>
      )}
      <div className="admin-record__body">
        <p className="admin-record__title">
          <Link to={`/admin?order=${encodeURIComponent(record.reference)}`}>
            {formatReference(record.reference)}
          </Link>{' '}
          <StatusTag status={record.status} />
          {record.kind === 'order' && (record.partlyRefundedPence ?? 0) > 0 && (
            <>
              {' '}
              <span className="admin-tag admin-tag--partly-refunded">refunded in part</span>
            </>
          )}
        </p>
        <p>
          {record.customerName} · {record.postcode}
        </p>
        <p className="hint">
          {bottlesText(record.bottles)} · {formatGbp(record.totalPence)} · dispatch{' '}
          {formatDay(record.dispatchDate)}
        </p>
        {canDispatch && chosen && (
          <AdminField
            label={`Tracking number for ${formatReference(record.reference)}`}
            hint="Optional: type or scan it from the label"
            error={trackingError}
          >
            {(props) => (
              <input
                {...props}
                name={`tracking-${record.reference}`}
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                value={tracking}
                onChange={(event) => onTracking(event.target.value)}
              />
            )}
          </AdminField>
        )}
      </div>
    </li>
  );
}
