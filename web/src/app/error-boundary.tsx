import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorPage } from './error-page';

interface ErrorBoundaryProps {
  /** A new key (the next location) clears a caught error, so navigating away leaves the error page. */
  resetKey: string;
  children: ReactNode;
}

interface ErrorBoundaryState {
  error: unknown;
  caughtAt: string | undefined;
}

/**
 * Catches what any page throws while rendering and shows "Unexpected Application Error!" in its
 * place. The declarative router has no `errorElement`, so this is the one place failures land.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: undefined, caughtAt: undefined };

  static getDerivedStateFromError(error: unknown): Partial<ErrorBoundaryState> {
    return { error: error ?? new Error('Unknown error') };
  }

  static getDerivedStateFromProps(
    props: ErrorBoundaryProps,
    state: ErrorBoundaryState,
  ): Partial<ErrorBoundaryState> | null {
    if (state.error === undefined) return null;
    if (state.caughtAt === undefined) return { caughtAt: props.resetKey };
    return state.caughtAt === props.resetKey ? null : { error: undefined, caughtAt: undefined };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    // One line with the error and where it came from, for the browser console and RUM.
    console.error('Unexpected application error:', error, info.componentStack ?? '');
  }

  override render() {
    return this.state.error === undefined ? this.props.children : <ErrorPage />;
  }
}
