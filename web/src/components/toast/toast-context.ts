import { createContext, use } from 'react';

export type ToastVariant = 'default' | 'destructive';

export interface ToastOptions {
  title: string;
  description?: string;
  /** `destructive` is announced assertively and styled as an error. */
  variant?: ToastVariant;
}

export interface ToastItem {
  id: number;
  title: string;
  description: string | undefined;
  variant: ToastVariant;
  /** What had focus when the toast appeared: focus goes back there when the toast is closed from inside. */
  returnFocus: Element | null;
}

export interface ToastApi {
  /** Shows a message, replacing the one shown (never a stack). Returns its id. */
  toast(options: ToastOptions): number;
  dismiss(id: number): void;
  dismissAll(): void;
}

export const ToastContext = createContext<ToastApi | null>(null);
export const ToastListContext = createContext<readonly ToastItem[]>([]);

/** Shows short messages in the page's live regions. */
export function useToast(): ToastApi {
  const api = use(ToastContext);
  if (!api) throw new Error('useToast must be used inside <ToastProvider>');
  return api;
}
