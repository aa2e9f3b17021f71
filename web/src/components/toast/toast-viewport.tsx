import { use, useEffect, useRef } from 'react';
import { lazyModule } from '../../lib/lazy-module';
import { ToastListContext } from './toast-context';

const DEFAULT_DURATION_MS = 7000;

// The toasts' code loads with the first toast (or the order flow): the first load carries only the regions.
const toastCode = lazyModule(() => import('./toast'));
export const loadToasts = toastCode.load;

/**
 * Two always-present live regions (polite, and assertive for errors), so screen readers watch them
 * before a toast comes. Closing a toast from inside puts focus back where it was.
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
