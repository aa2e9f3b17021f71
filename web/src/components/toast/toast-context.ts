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
}

export interface ToastApi {
  toast(options: ToastOptions): number;
  dismiss(id: number): void;
}

export const ToastContext = createContext<ToastApi | null>(null);

/** Shows short messages in the page's live regions. */
export function useToast(): ToastApi {
  const api = use(ToastContext);
  if (!api) throw new Error('useToast must be used inside <ToastProvider>');
  return api;
}
