import * as z from 'zod/mini';
import type { AdminDispatchResult } from '../../../../shared/admin-responses';
import { formatReference } from '../../../../shared/order-reference';
import type { AdminOutcome } from './admin-api';
import { formatDay } from './admin-format';
import { ConfirmQuestion } from './confirmed-action';
import type { ActionSummary } from './use-admin-action';

/** A dispatch answer, also the 409 when every order was refused, shown order by order. */
export function withRefusals<T>(
  outcome: AdminOutcome<T>,
  // The route's answer schema: a dispatch's, or a tracking import's.
  schema: z.ZodMiniType<T>,
): AdminOutcome<T> {
  if (outcome.ok || outcome.kind !== 'refused' || outcome.answer === undefined) return outcome;
  const read = z.safeParse(schema, outcome.answer);
  return read.success ? { ok: true, value: read.data } : outcome;
}

/** What became of each order of a dispatch, a line each, the refused ones with why. */
export function summariseDispatch(results: AdminDispatchResult[]): ActionSummary {
  const done = results.filter((result) => !('refused' in result) && result.changed).length;
  const refused = results.filter((result) => 'refused' in result).length;
  const message = [
    `${done} ${done === 1 ? 'order' : 'orders'} marked dispatched.`,
    refused > 0 ? `${refused} refused: nothing done to ${refused === 1 ? 'it' : 'them'}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const lines = results.map((result) => {
    const reference = formatReference(result.reference);
    if ('refused' in result) return { text: `${reference}: ${result.refused}`, refused: true };
    if (!result.changed) {
      return { text: `${reference} was already dispatched: nothing changed, no email sent again.` };
    }
    const tracking = result.record.trackingNumber ? ` (tracking ${result.record.trackingNumber})` : '';
    const email = result.email === 'sent' ? `sent to ${result.record.customerEmail}` : 'not sent again';
    return { text: `${reference} marked dispatched${tracking}; dispatch email ${email}.` };
  });
  return { message, lines };
}

/** An order refused only because it is planned for a later dispatch day (C3), and that day. */
export interface PlannedLater {
  reference: string;
  plannedFor: string;
}

/** The refused orders of a dispatch that would go on purpose (early), each with its planned day. */
export function plannedLater(results: AdminDispatchResult[]): PlannedLater[] {
  return results.flatMap((result) =>
    'refused' in result && result.plannedFor !== undefined
      ? [{ reference: result.reference, plannedFor: result.plannedFor }]
      : [],
  );
}

/** "2 orders are planned for Monday 14 December: dispatch them now?" */
export function earlyQuestion(planned: PlannedLater[]): string {
  const days = [...new Set(planned.map((order) => order.plannedFor))].sort().map(formatDay);
  const one = planned.length === 1;
  const when = days.length === 1 ? `for ${days[0]}` : `for later days (${days.join(', ')})`;
  return `${planned.length} ${one ? 'order is' : 'orders are'} planned ${when}: dispatch ${one ? 'it' : 'them'} now?`;
}

/** Asked after orders were refused as planned later: Confirm sends them again with `early: true`. */
export function EarlyDispatchQuestion({
  planned,
  pending,
  onConfirm,
  onCancel,
}: {
  planned: PlannedLater[];
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmQuestion
      question={earlyQuestion(planned)}
      confirmLabel={pending ? 'Marking dispatched…' : 'Confirm'}
      pending={pending}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}
