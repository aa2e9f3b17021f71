import { useCallback, useRef, useState } from 'react';
import type { AdminFailure, AdminOutcome } from './admin-api';

/** One line of a report about many orders: what became of one, `refused` when it was not done. */
export interface ReportLine {
  text: string;
  refused?: boolean;
}

/** What the last action said: done (what it did and what was emailed, order by order), or why not. */
export type ActionReport = { kind: 'done'; message: string; lines?: ReportLine[] } | AdminFailure;

/** A summary of an answer: one sentence, or a sentence over a line per order. */
export type ActionSummary = string | { message: string; lines: ReportLine[] };

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
      summarise: (value: T) => ActionSummary,
    ): Promise<T | undefined> => {
      if (busy.current) return undefined;
      busy.current = true;
      setPending(true);
      try {
        const outcome = await call();
        if (outcome.ok) {
          const summary = summarise(outcome.value);
          setReport(
            typeof summary === 'string' ? { kind: 'done', message: summary } : { kind: 'done', ...summary },
          );
        } else {
          setReport(outcome);
        }
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
