import { useEffect, useState } from 'react';
import { AlertIcon, CloseIcon, InfoIcon } from '../ui/icons';
import type { ToastItem } from './toast-context';

interface ToastProps {
  toast: ToastItem;
  onClose: () => void;
  onExpire: (id: number) => void;
  durationMs: number;
}

export function Toast({ toast, onClose, onExpire, durationMs }: ToastProps) {
  // Hovering or focusing a toast stops the clock, so nobody loses a message they are reading.
  const [paused, setPaused] = useState(false);

  useEffect(() => {
    if (paused) return;
    const timer = setTimeout(() => onExpire(toast.id), durationMs);
    return () => clearTimeout(timer);
  }, [paused, durationMs, onExpire, toast.id]);

  const destructive = toast.variant === 'destructive';
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the handlers only pause the timer; the button is the control.
    <div
      className={destructive ? 'toast toast--destructive' : 'toast'}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setPaused(false);
      }}
    >
      {destructive ? <AlertIcon className="toast__icon" /> : <InfoIcon className="toast__icon" />}
      <div className="toast__body">
        <p className="toast__title">{toast.title}</p>
        {toast.description ? <p className="toast__description">{toast.description}</p> : null}
      </div>
      {/* Named after its message, so two close buttons never sound the same. */}
      <button
        type="button"
        className="toast__close"
        aria-label={`Close message: ${toast.title}`}
        onClick={onClose}
      >
        <CloseIcon />
      </button>
    </div>
  );
}
