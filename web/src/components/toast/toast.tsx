import { type RefObject, useCallback, useEffect, useState } from 'react';
import { AlertIcon, CloseIcon, InfoIcon } from '../ui/more-icons';
import { type ToastItem, useToast } from './toast-context';

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

interface ToastListProps {
  toasts: readonly ToastItem[];
  /** The assertive region's list (errors), or the polite one's (information). */
  destructive: boolean;
  /** The viewport around both regions: focus inside it goes back when a toast closes. */
  viewport: RefObject<HTMLDivElement | null>;
  durationMs: number;
}

/**
 * One region's toasts. Closing one from inside puts focus back where it was when it appeared;
 * Escape closes the one shown.
 */
export function ToastList({ toasts, destructive, viewport, durationMs }: ToastListProps) {
  const { dismiss } = useToast();

  const close = useCallback(
    (item: ToastItem) => {
      const active = document.activeElement;
      const focusInside = active !== null && (viewport.current?.contains(active) ?? false);
      dismiss(item.id);
      if (focusInside && item.returnFocus instanceof HTMLElement && item.returnFocus.isConnected) {
        item.returnFocus.focus();
      }
    },
    [dismiss, viewport],
  );

  const shown = toasts.filter((item) => (item.variant === 'destructive') === destructive);
  // One toast at a time, in one of the two lists: that list closes it on Escape.
  const latest = shown.at(-1);
  useEffect(() => {
    if (!latest) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) close(latest);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [latest, close]);

  return shown.map((item) => (
    <Toast
      key={item.id}
      toast={item}
      onClose={() => close(item)}
      onExpire={dismiss}
      durationMs={durationMs}
    />
  ));
}
