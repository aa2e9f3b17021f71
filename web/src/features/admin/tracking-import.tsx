import { useState } from 'react';
import {
  type AdminImportRow,
  type AdminTrackingImportResponse,
  type AdminUnmatchedRow,
  adminTrackingImportResponseSchema,
} from '../../../../shared/admin-responses';
import { formatReference } from '../../../../shared/order-reference';
import type { AdminApi } from './admin-api';
import { formatDay } from './admin-format';
import { ActionReportView } from './admin-ui';
import { ConfirmedAction } from './confirmed-action';
import { earlyQuestion, withRefusals } from './dispatch-answer';
import { type ActionSummary, type AdminAction, useAdminAction } from './use-admin-action';

/** What a row of the preview would do, as the merchant reads it. */
function previewLine(row: AdminImportRow): string {
  const who = [row.customerName, row.customerEmail ? `(${row.customerEmail})` : ''].filter(Boolean).join(' ');
  const what =
    row.action === 'dispatch'
      ? `marked dispatched and emailed${row.plannedFor ? `, though planned for ${formatDay(row.plannedFor)}` : ''}`
      : row.action === 'trackingUpdate'
        ? 'number corrected, one update email'
        : row.action === 'unchanged'
          ? 'already has this number: nothing sent'
          : `refused: ${row.reason ?? 'see the order'}`;
  return `Line ${row.line}: ${formatReference(row.reference)}${who ? ` ${who}` : ''}, ${row.trackingNumber}: ${what}`;
}

const rowsText = (count: number) => `${count} ${count === 1 ? 'row' : 'rows'}`;

/** The real import's answer: what was marked and emailed, each refused order with why. */
function summariseImport({ results, unmatched }: AdminTrackingImportResponse): ActionSummary {
  const marked = results.filter((r) => !('refused' in r) && r.changed).length;
  const emailed = results.filter((r) => !('refused' in r) && r.email === 'sent').length;
  const message = `${results.length} ${results.length === 1 ? 'order' : 'orders'} matched: ${marked} marked dispatched, ${emailed} ${emailed === 1 ? 'email' : 'emails'} sent. ${rowsText(unmatched.length)} not matched.`;
  const lines = results.flatMap((result) =>
    'refused' in result
      ? [{ text: `${formatReference(result.reference)}: ${result.refused}`, refused: true }]
      : [],
  );
  return lines.length === 0 ? message : { message, lines };
}

interface Preview {
  csv: string;
  rows: AdminImportRow[];
  unmatched: AdminUnmatchedRow[];
}

/**
 * Click & Drop's export read back: choosing the CSV only previews; Confirm marks the orders dispatched
 * (each emailed once). Rows that matched no order are listed, with why.
 */
export function TrackingImport({ api, onChanged }: { api: AdminApi; onChanged: () => void }) {
  const { previewAction, action, preview, unmatched, choose, send, cancel, dismiss } = useTrackingImport(
    api,
    onChanged,
  );
  return (
    <div className="card admin-import">
      <h2>Tracking numbers from Click &amp; Drop</h2>
      <p className="hint">
        After printing labels, export the orders from Click &amp; Drop (CSV) and choose the file here. You see
        what it would do before anything is sent.
      </p>
      <label className="button button--secondary admin-file">
        {previewAction.pending ? 'Reading the file…' : 'Choose the Click & Drop export'}
        <input
          type="file"
          accept=".csv,text/csv"
          className="visually-hidden"
          disabled={previewAction.pending || action.pending}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void choose(file);
          }}
        />
      </label>
      {preview === undefined && previewAction.report?.kind !== 'done' && (
        <ActionReportView report={previewAction.report} onDismiss={previewAction.clear} />
      )}
      {preview !== undefined && (
        <ImportPreview action={action} rows={preview.rows} onConfirm={send} onCancel={cancel} />
      )}
      {preview === undefined && (
        <>
          <ActionReportView
            report={
              action.report ?? (previewAction.report?.kind === 'done' ? previewAction.report : undefined)
            }
            onDismiss={dismiss}
          />
          {unmatched.length > 0 && <UnmatchedRows rows={unmatched} label="Rows not matched" />}
        </>
      )}
    </div>
  );
}

/** The rows planned for a later dispatch day, which go only when the question names their day. */
function plannedRows(rows: AdminImportRow[]) {
  return rows.flatMap((row) =>
    row.action === 'dispatch' && row.plannedFor !== undefined
      ? [{ reference: row.reference, plannedFor: row.plannedFor }]
      : [],
  );
}

/** A chosen file previewed, then imported on Confirm; unmatched rows kept to list once done. */
function useTrackingImport(api: AdminApi, onChanged: () => void) {
  const previewAction = useAdminAction();
  const action = useAdminAction();
  const [preview, setPreview] = useState<Preview>();
  const [unmatched, setUnmatched] = useState<AdminUnmatchedRow[]>([]);

  const choose = async (file: File) => {
    setPreview(undefined);
    setUnmatched([]);
    action.clear();
    const csv = await file.text();
    // Previewed as if early: the rows planned for a later day show as they would go, and the
    // question names their day before Confirm sends them.
    const answer = await previewAction.run(
      async (options) =>
        withRefusals(
          await api.trackingImport({ csv, preview: true, early: true }, options),
          adminTrackingImportResponseSchema,
        ),
      (read) => {
        const goes = (read.rows ?? []).filter((row) => row.action !== 'refused').length;
        return `Nothing sent yet: ${rowsText(goes)} matched, ${rowsText(read.unmatched.length)} not.`;
      },
    );
    if (answer === undefined) return;
    setPreview({ csv, rows: answer.rows ?? [], unmatched: answer.unmatched });
  };

  const send = async () => {
    if (preview === undefined) return;
    const early = plannedRows(preview.rows).length > 0;
    const answer = await action.run(
      async (options) =>
        withRefusals(
          await api.trackingImport({ csv: preview.csv, ...(early && { early: true }) }, options),
          adminTrackingImportResponseSchema,
        ),
      summariseImport,
    );
    if (answer === undefined) return;
    setPreview(undefined);
    setUnmatched(answer.unmatched);
    onChanged();
  };

  const cancel = () => {
    setPreview(undefined);
    previewAction.clear();
  };
  const dismiss = () => {
    action.clear();
    previewAction.clear();
    setUnmatched([]);
  };
  return { previewAction, action, preview, unmatched, choose, send, cancel, dismiss };
}

/** What the file would do, row by row, and the question naming the orders, numbers and emails. */
function ImportPreview({
  action,
  rows,
  onConfirm,
  onCancel,
}: {
  action: AdminAction;
  rows: AdminImportRow[];
  onConfirm: () => Promise<void>;
  onCancel: () => void;
}) {
  const dispatches = rows.filter((row) => row.action === 'dispatch');
  const updates = rows.filter((row) => row.action === 'trackingUpdate');
  const planned = plannedRows(rows);
  const emails = dispatches.length + updates.length;
  return (
    <ConfirmedAction
      action={action}
      className="admin-import__preview"
      aria-label="The import, before it is sent"
      heading={
        <>
          <h3>Nothing sent yet: what the file would do</h3>
          <ul className="admin-lines" aria-label="What each row would do">
            {rows.map((row) => (
              <li key={row.line}>{previewLine(row)}</li>
            ))}
          </ul>
        </>
      }
      label={emails > 0 ? `Import and send ${emails} ${emails === 1 ? 'email' : 'emails'}…` : 'Import…'}
      question={[
        `Mark ${dispatches.length} ${dispatches.length === 1 ? 'order' : 'orders'} dispatched and correct ${updates.length} ${updates.length === 1 ? 'number' : 'numbers'}: ${emails} ${emails === 1 ? 'customer is' : 'customers are'} emailed.`,
        planned.length > 0 ? earlyQuestion(planned) : '',
      ]
        .filter(Boolean)
        .join(' ')}
      confirmLabel="Confirm"
      pendingLabel="Importing…"
      onConfirm={onConfirm}
      disabled={rows.length === 0}
      primary
    >
      <button type="button" className="button button--secondary" onClick={onCancel}>
        Cancel the import
      </button>
    </ConfirmedAction>
  );
}

function UnmatchedRows({ rows, label }: { rows: AdminUnmatchedRow[]; label: string }) {
  return (
    <ul className="admin-lines" aria-label={label}>
      {rows.map((row) => (
        <li key={row.line}>
          Line {row.line}
          {row.reference ? ` (${formatReference(row.reference)})` : ''}: {row.reason}
        </li>
      ))}
    </ul>
  );
}
