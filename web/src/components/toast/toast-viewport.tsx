import { use, useCallback, useEffect, useRef } from 'react';
import { lazyModule } from '../../lib/lazy-module';
import { type ToastItem, ToastListContext, useToast } from './toast-context';

const DEFAULT_DURATION_MS = 7000;

// A toast's own code loads when the first one is shown, or earlier with the code that raises
// them (the order page's flow): the page's first load carries only the empty regions.
const toastCode = lazyModule(() => import('./toast'));
export const loadToasts = toastCode.load;

/**
 * Two live regions that are always in the page, so screen readers are already watching them when
 * a toast is added: a polite one for information and an assertive one for errors. Escape closes
 * the toast shown; closing it from inside puts focus back where it was when the toast appeared.
 */
export function ToastViewport({ durationMs = DEFAULT_DURATION_MS }: { durationMs?: number }) {
  const toasts = use(ToastListContext);
  const { dismiss } = useToast();
  const viewport = useRef<HTMLDivElement>(null);
  const code = toastCode.use();

  useEffect(() => {
    if (toasts.length > 0) toastCode.load().catch(() => undefined);
  }, [toasts]);

  const close = useCallback(
    (item: ToastItem) => {
      const active = document.activeElement;
      const focusInside = active !== null && (viewport.current?.contains(active) ?? false);
      dismiss(item.id);
      if (focusInside && item.returnFocus instanceof HTMLElement && item.returnFocus.isConnected) {
        item.returnFocus.focus();
      }
    },
    [dismiss],
  );

  useEffect(() => {
    const latest = toasts.at(-1);
    if (!latest) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) close(latest);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [toasts, close]);

  const render = (item: ToastItem) =>
    code ? (
      <code.Toast
        key={item.id}
        toast={item}
        onClose={() => close(item)}
        onExpire={dismiss}
        durationMs={durationMs}
      />
    ) : null;
  return (
    <div className="toast-viewport" ref={viewport}>
      <div role="status" aria-live="polite" aria-label="Notifications" className="toast-region">
        {toasts.filter((item) => item.variant !== 'destructive').map(render)}
      </div>
      <div role="alert" aria-live="assertive" aria-label="Errors" className="toast-region">
        {toasts.filter((item) => item.variant === 'destructive').map(render)}
      </div>
    </div>
  );
}
