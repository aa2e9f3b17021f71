import { type ComponentProps, type ReactNode, useId } from 'react';
import type { AdminEmailOutcome } from '../../../../shared/admin-responses';
import type { ActionReport, AdminAction } from './use-admin-action';

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

/** Why an action is taken, one of a few named reasons, with the API's message about it after a 400. */
export function ReasonField<K extends string>({
  reasons,
  value,
  onChange,
  action,
}: {
  /** Each reason's value and the words shown for it, in the order shown. */
  reasons: Readonly<Record<K, string>>;
  /** Undefined: nothing chosen yet, a required choice (a refund's reason is told to the customer). */
  value: K | undefined;
  onChange: (value: K) => void;
  action: AdminAction;
}) {
  const entries = Object.entries(reasons) as [K, string][];
  return (
    <AdminField label="Reason" error={action.fieldError('reason')}>
      {(props) => (
        <select
          {...props}
          value={value ?? ''}
          required
          onChange={(event) => {
            const chosen = entries.find(([key]) => key === event.target.value);
            if (chosen) onChange(chosen[0]);
          }}
        >
          {value === undefined && (
            <option value="" disabled>
              Choose a reason
            </option>
          )}
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

/** A card that is one action's form: submitting runs `onSubmit` rather than loading a page. */
export function CardForm({
  onSubmit,
  ...form
}: Omit<ComponentProps<'form'>, 'onSubmit'> & { onSubmit: () => unknown }) {
  return (
    <form
      className="card"
      {...form}
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
    />
  );
}

/** One "label: value" row of an admin `<dl>`. */
export function Detail({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div>
      <dt>{label}</dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}

/** What a view loads: nothing yet, the API's refusal in its words, or what it asked for. */
export type Loadable<T> = T | { failed: string } | undefined;

/** "Loading…" announced until the view's data is here, then the API's refusal or `children` with it. */
export function Loaded<T extends object>({
  loaded,
  children,
}: {
  loaded: Loadable<T>;
  children: (value: T) => ReactNode;
}) {
  if (loaded === undefined) {
    return (
      <p className="loading" role="status">
        Loading…
      </p>
    );
  }
  return isFailed(loaded) ? <p role="alert">{loaded.failed}</p> : children(loaded);
}

function isFailed(loaded: object): loaded is { failed: string } {
  return 'failed' in loaded;
}

/** A short label for a status, shown as a tag beside references. */
export function StatusTag({ status }: { status: string }) {
  return <span className={`admin-tag admin-tag--${status}`}>{status}</span>;
}
