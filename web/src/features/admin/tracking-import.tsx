import { useState } from 'react';
import type { AdminUnmatchedRow } from '../../../../shared/admin-responses';
import { formatReference } from '../../../../shared/order-reference';
import type { AdminApi } from './admin-api';
import { ActionReportView } from './admin-ui';
import { useAdminAction } from './use-admin-action';

/**
 * Click & Drop's export, read back: the merchant picks the CSV it exported after printing labels;
 * its orders are marked dispatched with their tracking numbers (each emailed once), and the rows
 * that matched no order are listed, with why, to deal with by hand.
 */
export function TrackingImport({ api, onChanged }: { api: AdminApi; onChanged: () => void }) {
  const action = useAdminAction();
  const [unmatched, setUnmatched] = useState<AdminUnmatchedRow[]>([]);

  const importFile = async (file: File) => {
    setUnmatched([]);
    const csv = await file.text();
    const answer = await action.run(
      () => api.trackingImport({ csv }),
      ({ results, unmatched: missed }) => {
        const marked = results.filter((r) => !('refused' in r) && r.changed).length;
        const emailed = results.filter((r) => !('refused' in r) && r.email === 'sent').length;
        return `${results.length} ${results.length === 1 ? 'order' : 'orders'} matched: ${marked} marked dispatched, ${emailed} ${emailed === 1 ? 'email' : 'emails'} sent. ${missed.length} ${missed.length === 1 ? 'row' : 'rows'} not matched.`;
      },
    );
    if (answer !== undefined) {
      setUnmatched(answer.unmatched);
      onChanged();
    }
  };

  return (
    <div className="card admin-import">
      <h2>Tracking numbers from Click &amp; Drop</h2>
      <p className="hint">
        After printing labels, export the orders from Click &amp; Drop (CSV) and choose the file here.
      </p>
      <label className="button button--secondary admin-file">
        {action.pending ? 'Importing…' : 'Choose the Click & Drop export'}
        <input
          type="file"
          accept=".csv,text/csv"
          className="visually-hidden"
          disabled={action.pending}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void importFile(file);
          }}
        />
      </label>
      <ActionReportView report={action.report} />
      {unmatched.length > 0 && (
        <ul aria-label="Rows not matched">
          {unmatched.map((row) => (
            <li key={row.line}>
              Line {row.line}
              {row.reference ? ` (${formatReference(row.reference)})` : ''}: {row.reason}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
