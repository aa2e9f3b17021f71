import { type ReactNode, useCallback, useMemo, useRef, useState } from 'react';
import {
  type ToastApi,
  ToastContext,
  type ToastItem,
  ToastListContext,
  type ToastOptions,
} from './toast-context';

/**
 * Holds the toast shown. It renders none itself: the page places `<ToastViewport />` where a
 * message can never cover what the customer is working on (the order page puts it under the
 * checkout button, in the flow of the page rather than over it).
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<readonly ToastItem[]>([]);
  const nextId = useRef(0);

  const dismiss = useCallback((id: number) => {
    setToasts((current) => current.filter((item) => item.id !== id));
  }, []);

  const dismissAll = useCallback(() => setToasts([]), []);

  const toast = useCallback(({ title, description, variant = 'default' }: ToastOptions) => {
    nextId.current += 1;
    const returnFocus = typeof document === 'undefined' ? null : document.activeElement;
    // One at a time: a new message replaces the old one, which no longer applies.
    setToasts([{ id: nextId.current, title, description, variant, returnFocus }]);
    return nextId.current;
  }, []);

  const api = useMemo<ToastApi>(() => ({ toast, dismiss, dismissAll }), [toast, dismiss, dismissAll]);

  return (
    <ToastContext value={api}>
      <ToastListContext value={toasts}>{children}</ToastListContext>
    </ToastContext>
  );
}
