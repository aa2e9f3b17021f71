import { type ComponentProps, type ReactNode, useEffect, useId, useRef } from 'react';
import type { AdminEmailOutcome } from '../../../../shared/admin-responses';
import type { ActionReport, AdminAction } from './use-admin-action';

/** Reports already brought into view: a view that reloads mounts its report again, and it stays put. */
const broughtIntoView = new WeakSet<object>();
/**
 * How long a new report is kept in view while the view reloads around it (its list shrinking): the
 * reload is the whole week's read, seconds on a phone's network, so this outlasts it; any input ends it.
 */
const KEEP_IN_VIEW_MS = 20_000;

/** Keeps a new report in view while the page's height settles, until the merchant scrolls, taps or types. */
function useKeptInView(report: object | undefined) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (report === undefined || element === null || broughtIntoView.has(report)) return;
    broughtIntoView.add(report);
    // jsdom has neither; a browser has both.
    const bring = () => element.scrollIntoView?.({ block: 'nearest' });
    bring();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(bring);
    observer.observe(document.body);
    const stop = () => observer.disconnect();
    const timer = setTimeout(stop, KEEP_IN_VIEW_MS);
    const inputs = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
    for (const input of inputs) window.addEventListener(input, stop, { once: true, passive: true });
    return () => {
      stop();
      clearTimeout(timer);
      for (const input of inputs) window.removeEventListener(input, stop);
    };
  }, [report]);
  return ref;
}

/**
 * An action's answer in an always-present live region, so a screen reader hears it: what was done and
 * emailed, or the API's refusal in its words (a 400's messages by their fields). With `onDismiss` it stays.
 */
export function ActionReportView({
  report,
  onDismiss,
  className,
}: {
  report: ActionReport | undefined;
  onDismiss?: () => void;
  className?: string;
}) {
  const ref = useKeptInView(report);
  const failed = report !== undefined && report.kind !== 'done';
  const lines = report?.kind === 'done' ? (report.lines ?? []) : [];
  return (
    <div ref={ref} className={className ? `admin-result ${className}` : 'admin-result'}>
      <div role="status">
        {report !== undefined && (
          <div className={failed ? 'admin-report admin-report--failed' : 'admin-report'}>
            <p>{report.message}</p>
            {lines.length > 0 && (
              <ul className="admin-report__lines">
                {lines.map((line) => (
                  <li key={line.text} className={line.refused ? 'admin-report__refused' : undefined}>
                    {line.text}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
      {report !== undefined && onDismiss !== undefined && (
        <button type="button" className="button button--secondary" onClick={onDismiss}>
          Dismiss
        </button>
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

/** A line of text the merchant types (a tracking number, a postcode), kept as typed, never autofilled. */
export function TextInputField({
  label,
  error,
  value,
  onChange,
  type,
}: {
  label: string;
  error: string | undefined;
  value: string;
  onChange: (value: string) => void;
  type?: 'tel';
}) {
  return (
    <AdminField label={label} error={error}>
      {(props) => (
        <input
          {...props}
          type={type}
          value={value}
          autoComplete="off"
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </AdminField>
  );
}

/**
 * A choice of a few values, each with its words, as a select with its label and the API's message.
 * With `placeholder` it starts unmade and is required (a refund's reason is told to the customer).
 */
export function SelectField<V extends string>({
  label,
  error,
  value,
  options,
  onChange,
  placeholder,
}: {
  label: string;
  error: string | undefined;
  value: V | undefined;
  /** Each value with the words shown for it, in the order shown. */
  options: readonly { value: V; words: string }[];
  onChange: (value: V) => void;
  placeholder?: string;
}) {
  return (
    <AdminField label={label} error={error}>
      {(props) => (
        <select
          {...props}
          value={value ?? ''}
          required={placeholder !== undefined}
          onChange={(event) => {
            const chosen = options.find((option) => option.value === event.target.value);
            if (chosen) onChange(chosen.value);
          }}
        >
          {value === undefined && placeholder !== undefined && (
            <option value="" disabled>
              {placeholder}
            </option>
          )}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.words}
            </option>
          ))}
        </select>
      )}
    </AdminField>
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
  /** Undefined: nothing chosen yet. */
  value: K | undefined;
  onChange: (value: K) => void;
  action: AdminAction;
}) {
  const options = (Object.entries(reasons) as [K, string][]).map(([key, words]) => ({ value: key, words }));
  return (
    <SelectField
      label="Reason"
      error={action.fieldError('reason')}
      value={value}
      options={options}
      onChange={onChange}
      placeholder="Choose a reason"
    />
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
