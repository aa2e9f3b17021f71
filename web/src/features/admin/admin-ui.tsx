import { type ReactNode, useId } from 'react';
import type { AdminEmailOutcome } from '../../../../shared/admin-responses';
import type { ActionReport } from './use-admin-action';

/**
 * The answer of an action, in a live region that is always there, so a screen reader hears it:
 * what was done and emailed, or the API's refusal in its own words. A 400's field messages are
 * shown by their fields; the summary says to look there.
 */
export function ActionReportView({
  report,
  className,
}: {
  report: ActionReport | undefined;
  className?: string;
}) {
  const failed = report !== undefined && report.kind !== 'done';
  return (
    <div role="status" className={className}>
      {report !== undefined && (
        <p className={failed ? 'admin-report admin-report--failed' : 'admin-report'}>{report.message}</p>
      )}
    </div>
  );
}

/** "email sent" or "no email sent again" as an action's report says it. */
export function emailWording(outcome: AdminEmailOutcome, what: string, to: string): string {
  return outcome === 'sent' ? `${what} email sent to ${to}.` : `No ${what.toLowerCase()} email sent again.`;
}

interface AdminFieldProps {
  label: string;
  error: string | undefined;
  hint?: string;
  children: (props: {
    id: string;
    'aria-invalid': boolean;
    'aria-describedby': string | undefined;
  }) => ReactNode;
  className?: string;
}

/** A labelled control with its hint and, after a 400, the API's message for it. */
export function AdminField({ label, error, hint, children, className }: AdminFieldProps) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className={`field${error ? ' field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {children({ id, 'aria-invalid': error !== undefined, 'aria-describedby': described || undefined })}
      {error && (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A labelled choice among a few named options (a reason, a mode), with the API's message after a 400. */
export function SelectField<K extends string>({
  label,
  options,
  value,
  onChange,
  error,
}: {
  label: string;
  /** Each option's value and the words shown for it, in the order shown. */
  options: Readonly<Record<K, string>>;
  value: K;
  onChange: (value: K) => void;
  error: string | undefined;
}) {
  const entries = Object.entries(options) as [K, string][];
  return (
    <AdminField label={label} error={error}>
      {(props) => (
        <select
          {...props}
          value={value}
          onChange={(event) => {
            const chosen = entries.find(([key]) => key === event.target.value);
            if (chosen) onChange(chosen[0]);
          }}
        >
          {entries.map(([key, words]) => (
            <option key={key} value={key}>
              {words}
            </option>
          ))}
        </select>
      )}
    </AdminField>
  );
}

/** A short label for a status, shown as a tag beside references. */
export function StatusTag({ status }: { status: string }) {
  return <span className={`admin-tag admin-tag--${status}`}>{status}</span>;
}
