import { useCallback, useRef, useState } from 'react';
import type { AdminCallOptions } from '../../../../shared/admin-client-core';
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
 * One action's state: `pending` is a ref, so a double click between renders is caught too. Each
 * intention's `Idempotency-Key` is made when its question is asked, so a retried Confirm acts once.
 */
export function useAdminAction() {
  const busy = useRef(false);
  const intention = useRef<AdminCallOptions | undefined>(undefined);
  const unanswered = useRef(false);
  const [pending, setPending] = useState(false);
  const [report, setReport] = useState<ActionReport | undefined>(undefined);

  /** A new intention: the question just asked gets its own key. */
  const ask = useCallback(() => {
    intention.current = { idempotencyKey: crypto.randomUUID() };
  }, []);

  const run = useCallback(
    async <T>(
      call: (options: AdminCallOptions) => Promise<AdminOutcome<T>>,
      summarise: (value: T) => ActionSummary,
    ): Promise<T | undefined> => {
      if (busy.current) return undefined;
      busy.current = true;
      setPending(true);
      try {
        const options = intention.current ?? { idempotencyKey: crypto.randomUUID() };
        const outcome = await call(options);
        // Left without an answer, the same intention may be confirmed again under its key.
        unanswered.current = !outcome.ok && outcome.kind === 'failed';
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

  /** The last call got no answer: its question may be confirmed again, with the same key. */
  const lastUnanswered = useCallback(() => unanswered.current, []);

  return { pending, report, run, clear, fieldError, ask, lastUnanswered };
}

/** What `useAdminAction` gives a view: its state, `run`, `clear` and `fieldError`. */
export type AdminAction = ReturnType<typeof useAdminAction>;
