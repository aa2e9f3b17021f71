import { type ReactNode, useCallback, useMemo, useRef, useState } from 'react';
import { type ToastApi, ToastContext, type ToastItem, type ToastOptions } from './toast-context';
import { ToastViewport } from './toast-viewport';

// A few at most: a stack of old errors hides the page and says nothing new.
const MAX_TOASTS = 3;
const DEFAULT_DURATION_MS = 7000;

export function ToastProvider({
  children,
  durationMs = DEFAULT_DURATION_MS,
}: {
  children: ReactNode;
  durationMs?: number;
}) {
  const [toasts, setToasts] = useState<readonly ToastItem[]>([]);
  const nextId = useRef(0);

  const dismiss = useCallback((id: number) => {
    setToasts((current) => current.filter((item) => item.id !== id));
  }, []);

  const toast = useCallback(({ title, description, variant = 'default' }: ToastOptions) => {
    nextId.current += 1;
    const item: ToastItem = { id: nextId.current, title, description, variant };
    // The same message again replaces the old one, so it is announced again without piling up.
    setToasts((current) => [...current.filter((other) => other.title !== title), item].slice(-MAX_TOASTS));
    return item.id;
  }, []);

  const api = useMemo<ToastApi>(() => ({ toast, dismiss }), [toast, dismiss]);

  return (
    <ToastContext value={api}>
      {children}
      <ToastViewport toasts={toasts} onDismiss={dismiss} durationMs={durationMs} />
    </ToastContext>
  );
}
