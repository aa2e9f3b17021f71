import { useCallback, useRef, useState } from 'react';
import type { AdminFailure, AdminOutcome } from './admin-api';

/** What the last action said: done (what it did and what was emailed), or why not. */
export type ActionReport = { kind: 'done'; message: string } | AdminFailure;

/**
 * One action's state: `pending` while a call runs, during which another press does nothing (a
 * ref, not state, so a double click between two renders is caught too), and the report of the
 * last call. `run` returns the answer, for the view to take the new state from.
 */
export function useAdminAction() {
  const busy = useRef(false);
  const [pending, setPending] = useState(false);
  const [report, setReport] = useState<ActionReport | undefined>(undefined);

  const run = useCallback(
    async <T>(
      call: () => Promise<AdminOutcome<T>>,
      summarise: (value: T) => string,
    ): Promise<T | undefined> => {
      if (busy.current) return undefined;
      busy.current = true;
      setPending(true);
      try {
        const outcome = await call();
        setReport(outcome.ok ? { kind: 'done', message: summarise(outcome.value) } : outcome);
        return outcome.ok ? outcome.value : undefined;
      } finally {
        busy.current = false;
        setPending(false);
      }
    },
    [],
  );

  const clear = useCallback(() => setReport(undefined), []);
  /** The message for a field of the body, when the API refused the call with field messages (400). */
  const fieldError = (field: string) => (report?.kind === 'invalid' ? report.fields[field] : undefined);

  return { pending, report, run, clear, fieldError };
}

/** What `useAdminAction` gives a view: its state, `run`, `clear` and `fieldError`. */
export type AdminAction = ReturnType<typeof useAdminAction>;
