import { type ComponentProps, type ReactNode, useRef, useState } from 'react';
import { ActionReportView } from './admin-ui';
import type { AdminAction } from './use-admin-action';

interface ConfirmedActionProps extends Omit<ComponentProps<'form'>, 'action' | 'onSubmit' | 'children'> {
  /** The action's state, from `useAdminAction()`: the same one `onConfirm` runs through. */
  action: AdminAction;
  /** Stays above the fields, also once the action is finished (the card's heading). */
  heading?: ReactNode;
  /** The first button: what the merchant asks for ("Delay the day", "Refund…"). */
  label: string;
  /** The question naming what will happen, asked before anything is sent. */
  question: ReactNode;
  /** The button that does it ("Confirm", "Refund £14.70"). */
  confirmLabel: string;
  /** The confirm button's text while the call runs ("Refunding…"). */
  pendingLabel: string;
  /** Does the action, through `action.run`; called once however often the button is pressed. */
  onConfirm: () => Promise<unknown>;
  /** The first button is not offered yet (nothing chosen). */
  disabled?: boolean;
  /** Nothing left to do (the order refunded, the day emptied): only the heading and the result stay. */
  finished?: boolean;
  /** The first button is what the shop needs now: filled rather than outlined. */
  primary?: boolean;
  /** The action cannot be undone: the confirm button is red. */
  danger?: boolean;
  /** The action's fields, locked while the question is asked so the answer is about what was asked. */
  children?: ReactNode;
}

/**
 * An admin action that asks first; its result stays (a reload included) until dismissed, since what
 * was emailed must be readable.
 */
export function ConfirmedAction({
  action,
  heading,
  label,
  question,
  confirmLabel,
  pendingLabel,
  onConfirm,
  disabled = false,
  finished = false,
  primary = false,
  danger = false,
  children,
  className = 'card',
  ...form
}: ConfirmedActionProps) {
  const { asking, submit, cancel } = useConfirmation(action, onConfirm);
  return (
    <form
      {...form}
      className={className}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {heading}
      {!finished && (
        <>
          <fieldset className="admin-fields" disabled={asking}>
            {children}
          </fieldset>
          {asking ? (
            <ConfirmQuestion
              question={question}
              confirmLabel={action.pending ? pendingLabel : confirmLabel}
              danger={danger}
              pending={action.pending}
              onCancel={cancel}
            />
          ) : (
            <button
              type="submit"
              className={primary ? 'button button--primary' : 'button button--secondary'}
              disabled={disabled || action.pending}
            >
              {label}
            </button>
          )}
        </>
      )}
      <ActionReportView report={action.report} />
      {action.report !== undefined && (
        <button type="button" className="button button--secondary" onClick={action.clear}>
          Dismiss
        </button>
      )}
    </form>
  );
}

/** The first submit asks; the second runs `onConfirm` once, however often it is pressed. */
function useConfirmation(action: AdminAction, onConfirm: () => Promise<unknown>) {
  const [asking, setAsking] = useState(false);
  // A ref, not state: a double press lands before the next render.
  const confirming = useRef(false);
  const confirm = async () => {
    if (confirming.current) return;
    confirming.current = true;
    try {
      await onConfirm();
    } finally {
      confirming.current = false;
      // No answer: the question stays, and Confirm again repeats it under the same key.
      if (!action.lastUnanswered()) setAsking(false);
    }
  };
  const submit = () => {
    if (asking) {
      void confirm();
      return;
    }
    action.clear();
    action.ask();
    setAsking(true);
  };
  return { asking, submit, cancel: () => setAsking(false) };
}

/** Confirm (red when it cannot be undone) and Cancel, locked while the call runs. */
export function ConfirmQuestion({
  question,
  confirmLabel,
  danger = false,
  pending,
  onConfirm,
  onCancel,
}: {
  question: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  pending: boolean;
  onConfirm?: () => void;
  onCancel: () => void;
}) {
  return (
    <div className="admin-confirm">
      <p role="status">{question}</p>
      <div className="admin-actions">
        <button
          type={onConfirm ? 'button' : 'submit'}
          className={danger ? 'button button--danger' : 'button button--primary'}
          disabled={pending}
          onClick={onConfirm}
        >
          {confirmLabel}
        </button>
        <button type="button" className="button button--secondary" disabled={pending} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
