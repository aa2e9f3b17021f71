import { Toast } from './toast';
import type { ToastItem } from './toast-context';

interface ToastViewportProps {
  toasts: readonly ToastItem[];
  onDismiss: (id: number) => void;
  durationMs: number;
}

/**
 * Two live regions that are always in the page, so screen readers are already watching them when
 * a toast is added: a polite one for information and an assertive one for errors.
 */
export function ToastViewport({ toasts, onDismiss, durationMs }: ToastViewportProps) {
  const render = (item: ToastItem) => (
    <Toast key={item.id} toast={item} onDismiss={onDismiss} durationMs={durationMs} />
  );
  return (
    <div className="toast-viewport">
      <div role="status" aria-live="polite" aria-label="Notifications" className="toast-region">
        {toasts.filter((item) => item.variant !== 'destructive').map(render)}
      </div>
      <div role="alert" aria-live="assertive" aria-label="Errors" className="toast-region">
        {toasts.filter((item) => item.variant === 'destructive').map(render)}
      </div>
    </div>
  );
}
