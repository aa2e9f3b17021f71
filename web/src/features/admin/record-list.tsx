import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { AdminRecordView } from '../../../../shared/admin-responses';
import { formatReference } from '../../../../shared/order-reference';
import { formatGbp } from '../../../../shared/pricing';
import type { AdminApi } from './admin-api';
import { bottlesText, formatDay } from './admin-format';
import { ActionReportView, AdminField, StatusTag } from './admin-ui';
import { useAdminAction } from './use-admin-action';

interface RecordListProps {
  api: AdminApi;
  records: AdminRecordView[];
  /** Called with the orders a dispatch changed, so the view can show their new state. */
  onChanged: () => void;
  /** Names the list for screen readers ("Orders for Monday 30 November"). */
  label: string;
}

/**
 * Orders and requests as rows, each leading to its page; paid orders have a checkbox, and the
 * chosen ones are marked dispatched in one call.
 */
export function RecordList({ api, records, onChanged, label }: RecordListProps) {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  // Each chosen order's tracking number as typed or scanned; a blank one is none.
  const [tracking, setTracking] = useState<Readonly<Record<string, string>>>({});
  const action = useAdminAction();
  const dispatchable = records.filter((record) => record.kind === 'order' && record.status === 'paid');

  const toggle = (reference: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(reference);
      else next.delete(reference);
      return next;
    });

  const dispatch = async () => {
    const references = [...chosen];
    const trackingNumbers = Object.fromEntries(
      references.flatMap((reference) => {
        const typed = tracking[reference]?.trim() ?? '';
        return typed === '' ? [] : [[reference, typed]];
      }),
    );
    const answer = await action.run(
      () => api.dispatch({ references, trackingNumbers }),
      ({ results }) =>
        results
          .map((result) =>
            'refused' in result
              ? `${formatReference(result.reference)}: ${result.refused}`
              : result.changed
                ? `${formatReference(result.reference)} marked dispatched${result.record.trackingNumber ? ` (tracking ${result.record.trackingNumber})` : ''}; dispatch email ${result.email === 'sent' ? `sent to ${result.record.customerEmail}` : 'not sent again'}.`
                : `${formatReference(result.reference)} was already dispatched: nothing changed, no email sent again.`,
          )
          .join(' '),
    );
    if (answer !== undefined) {
      setChosen(new Set());
      setTracking({});
      onChanged();
    }
  };

  if (records.length === 0) return <p className="hint">Nothing here.</p>;
  return (
    <div className="admin-list">
      <ul className="admin-records" aria-label={label}>
        {records.map((record) => {
          const canDispatch = record.kind === 'order' && record.status === 'paid';
          return (
            <li key={record.reference} className="admin-record">
              {canDispatch && (
                // The label is the target, 44 px square: the box itself is too small for a thumb.
                <label className="admin-record__check">
                  <input
                    type="checkbox"
                    aria-label={`Choose ${formatReference(record.reference)} (${record.customerName})`}
                    checked={chosen.has(record.reference)}
                    onChange={(event) => toggle(record.reference, event.target.checked)}
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
                {canDispatch && chosen.has(record.reference) && (
                  <AdminField
                    label={`Tracking number for ${formatReference(record.reference)}`}
                    hint="Optional: type or scan it from the label"
                    error={action.fieldError('trackingNumbers')}
                  >
                    {(props) => (
                      <input
                        {...props}
                        name={`tracking-${record.reference}`}
                        autoComplete="off"
                        autoCapitalize="characters"
                        spellCheck={false}
                        value={tracking[record.reference] ?? ''}
                        onChange={(event) =>
                          setTracking((current) => ({ ...current, [record.reference]: event.target.value }))
                        }
                      />
                    )}
                  </AdminField>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {dispatchable.length > 0 && (
        <div className="admin-actions">
          <button
            type="button"
            className="button button--primary"
            disabled={action.pending || chosen.size === 0}
            onClick={dispatch}
          >
            {action.pending
              ? 'Marking dispatched…'
              : chosen.size > 0
                ? `Mark ${chosen.size} dispatched`
                : 'Mark dispatched'}
          </button>
        </div>
      )}
      <ActionReportView report={action.report} />
    </div>
  );
}
