import { use, useEffect, useRef } from 'react';
import { lazyModule } from '../../lib/lazy-module';
import { ToastListContext } from './toast-context';

const DEFAULT_DURATION_MS = 7000;

// The toasts' own code (the toast, closing it, Escape) loads when the first one is shown, or
// earlier with the code that raises them (the order page's flow): the first load carries only the
// empty regions.
const toastCode = lazyModule(() => import('./toast'));
export const loadToasts = toastCode.load;

/**
 * Two live regions that are always in the page, so screen readers are already watching them when
 * a toast is added: a polite one for information and an assertive one for errors. Escape closes
 * the toast shown; closing it from inside puts focus back where it was when the toast appeared.
 */
export function ToastViewport({ durationMs = DEFAULT_DURATION_MS }: { durationMs?: number }) {
  const toasts = use(ToastListContext);
  const viewport = useRef<HTMLDivElement>(null);
  const code = toastCode.use();

  useEffect(() => {
    if (toasts.length > 0) toastCode.load().catch(() => undefined);
  }, [toasts]);

  const list = (destructive: boolean) =>
    code ? (
      <code.ToastList toasts={toasts} destructive={destructive} viewport={viewport} durationMs={durationMs} />
    ) : null;
  return (
    <div className="toast-viewport" ref={viewport}>
      <div role="status" aria-live="polite" aria-label="Notifications" className="toast-region">
        {list(false)}
      </div>
      <div role="alert" aria-live="assertive" aria-label="Errors" className="toast-region">
        {list(true)}
      </div>
    </div>
  );
}
