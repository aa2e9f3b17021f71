import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { dispatchCutoff, formatLondonDayAndTime } from '../../../../../shared/dispatch';
import { formatGbp, quoteOrder } from '../../../../../shared/pricing';
import type {
  StandingDelivery,
  StandingOrderChangeBody,
  StandingOrderPageView,
} from '../../../../../shared/standing-order-page';
import { RadioChoice } from '../../../components/ui/radio-choice';
import { TitledCard } from '../../../components/ui/titled-card';
import { useApiClient, useAppConfig } from '../../../lib/app-context';
import { changeStandingOrder } from '../order-page-api';

type WithoutToken<Body> = Body extends unknown ? Omit<Body, 'token'> : never;
/** One change as the page sends it: the body without the token (added as it is sent). */
type Change = WithoutToken<StandingOrderChangeBody>;

/** What the last change came to, in words; `key` moves focus to it each time, even for the same words. */
interface Outcome {
  tone: 'done' | 'refused';
  text: string;
  key: number;
}

const QUANTITIES = [3, 6, 9] as const;
/** Each quantity with what a delivery of it costs. */
const QUANTITY_OPTIONS = QUANTITIES.map((each) => ({
  value: each,
  label: (
    <>
      {each} bottles, {formatGbp(quoteOrder(each).totalPence)}
    </>
  ),
}));
const EMAILED = 'We have emailed you a confirmation.';

interface ChangesProps {
  token: string;
  view: StandingOrderPageView;
  onChanged: (view: StandingOrderPageView) => void;
}

/**
 * The changes the server offers now (its `actions`), each sent as one request; the answer replaces
 * the view, and what it came to (or the server's reason for refusing) is said in words that take
 * focus, so keyboard and screen reader users land on it.
 */
export function StandingOrderChanges({ token, view, onChanged }: ChangesProps) {
  const { send, sending, outcome } = useStandingChange(token, onChanged);
  const offered = new Set(view.actions);
  const next = skipTarget(view, useAppConfig().dispatchCutoffHours);
  return (
    <TitledCard heading="Change your standing order" busy={sending}>
      <OutcomeMessage outcome={outcome} sending={sending} />
      {offered.has('skip') && next !== undefined ? (
        <SkipNext delivery={next} view={view} sending={sending} send={send} />
      ) : null}
      {offered.has('quantity') ? <ChangeQuantity view={view} sending={sending} send={send} /> : null}
      {offered.has('pause') ? (
        <ActionBlock hint="We take no payments and send nothing until you resume.">
          <ChangeButton
            sending={sending}
            onClick={() =>
              send(
                { action: 'pause' },
                () => `Paused: we take no payments and send nothing until you resume. ${EMAILED}`,
              )
            }
          >
            Pause deliveries
          </ChangeButton>
        </ActionBlock>
      ) : null}
      {offered.has('resume') ? (
        <ActionBlock hint="Your deliveries start again from the next one we can still pack.">
          <ChangeButton
            primary
            sending={sending}
            onClick={() =>
              send({ action: 'resume' }, () => `Resumed: your coming deliveries are listed below. ${EMAILED}`)
            }
          >
            Resume deliveries
          </ChangeButton>
        </ActionBlock>
      ) : null}
      {offered.has('cancel') ? <CancelStandingOrder sending={sending} send={send} /> : null}
      {view.actions.length === 0 ? <p className="hint">{NOTHING_TO_CHANGE[view.status]}</p> : null}
    </TitledCard>
  );
}

const NOTHING_TO_CHANGE: Record<StandingOrderPageView['status'], string> = {
  active: 'Nothing can be changed here just now. Please contact the seller.',
  paused: 'Nothing can be changed here just now. Please contact the seller.',
  cancelled:
    'This standing order is cancelled: we take no more payments for it. You are welcome to order again.',
};

/**
 * The delivery "skip" applies to, as the server chooses it: the first not skipped whose packing
 * cut-off is the one the view says skipping is open until (a paid delivery past its cut-off is
 * listed, but the next one is skipped instead).
 */
function skipTarget(view: StandingOrderPageView, cutoffHours: number): StandingDelivery | undefined {
  const open = view.deliveries.filter((delivery) => delivery.state !== 'skipped');
  const closing = (delivery: StandingDelivery) =>
    formatLondonDayAndTime(dispatchCutoff(delivery.day, cutoffHours));
  return open.find((delivery) => closing(delivery) === view.skipOpenUntil) ?? open[0];
}

type Send = (change: Change, confirmation: (view: StandingOrderPageView) => string) => void;

/** Sends a change and keeps what it came to; one at a time (every button is disabled meanwhile). */
function useStandingChange(token: string, onChanged: (view: StandingOrderPageView) => void) {
  const api = useApiClient();
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();
  const send: Send = (change, confirmation) => {
    setSending(true);
    void changeStandingOrder(api.request, { ...change, token }).then((result) => {
      setSending(false);
      if (result.kind === 'changed') onChanged(result.view);
      const said =
        result.kind === 'changed'
          ? { tone: 'done' as const, text: confirmation(result.view) }
          : {
              tone: 'refused' as const,
              text: result.kind === 'refused' ? result.message : REFUSALS[result.kind],
            };
      setOutcome((last) => ({ ...said, key: (last?.key ?? 0) + 1 }));
    });
  };
  return { send, sending, outcome };
}

const REFUSALS = {
  'not-found': 'This link no longer opens your standing order. Please contact the seller.',
  failed: 'We could not make this change just now. Please check your connection and try again.',
} as const;

/** The last change's outcome: a confirmation in the live region, a refusal as an alert; focused when it appears. */
function OutcomeMessage({ outcome, sending }: { outcome: Outcome | undefined; sending: boolean }) {
  const ref = useRef<HTMLParagraphElement>(null);
  const key = outcome?.key;
  useEffect(() => {
    if (key !== undefined) ref.current?.focus();
  }, [key]);
  return (
    <>
      {/* Present from the start, so what it comes to is announced when it appears. */}
      <div role="status">
        {sending ? <p>Saving your change…</p> : null}
        {!sending && outcome?.tone === 'done' ? (
          <p ref={ref} tabIndex={-1} className="dispatch-note">
            {outcome.text}
          </p>
        ) : null}
      </div>
      {!sending && outcome?.tone === 'refused' ? (
        <p ref={ref} tabIndex={-1} role="alert">
          {outcome.text}
        </p>
      ) : null}
    </>
  );
}

function ActionBlock({ hint, children }: { hint: string; children: ReactNode }) {
  return (
    <div className="fields">
      <p className="hint">{hint}</p>
      <div className="actions">{children}</div>
    </div>
  );
}

function SkipNext({
  delivery,
  view,
  sending,
  send,
}: {
  delivery: StandingDelivery;
  view: StandingOrderPageView;
  sending: boolean;
  send: Send;
}) {
  // A paid delivery skipped is refunded in full; an unpaid one is never charged.
  const money =
    delivery.state === 'paid'
      ? `We are refunding its ${formatGbp(view.totalPence)} in full.`
      : 'We will not charge you for it.';
  return (
    <ActionBlock
      hint={`Your next delivery is on ${delivery.dayText}. You can skip it until ${view.skipOpenUntil ?? 'we start packing'}.`}
    >
      <ChangeButton
        sending={sending}
        onClick={() =>
          send(
            { action: 'skip', day: delivery.day },
            () => `Skipped: no delivery on ${delivery.dayText}. ${money} ${EMAILED}`,
          )
        }
      >
        Skip the delivery on {delivery.dayText}
      </ChangeButton>
    </ActionBlock>
  );
}

/** 3, 6 or 9 bottles a delivery, as native radio buttons, from the next payment not yet taken. */
function ChangeQuantity({
  view,
  sending,
  send,
}: {
  view: StandingOrderPageView;
  sending: boolean;
  send: Send;
}) {
  const [chosen, setChosen] = useState<number>(view.bottles);
  const quantity = QUANTITIES.find((each) => each === chosen);
  return (
    <RadioChoice
      legend="Bottles each delivery"
      options={QUANTITY_OPTIONS}
      value={quantity}
      onChange={setChosen}
    >
      <p className="hint">From your next payment not yet taken; deliveries already paid stay as they are.</p>
      <div className="actions">
        <button
          type="button"
          className="button button--secondary"
          disabled={sending || quantity === undefined || quantity === view.bottles}
          onClick={() => {
            if (quantity === undefined) return;
            send(
              { action: 'quantity', quantity },
              (changed) =>
                `Changed to ${changed.bottles} bottles a delivery, ${formatGbp(changed.totalPence)} each, from your next payment. ${EMAILED}`,
            );
          }}
        >
          Change to {chosen} bottles
        </button>
      </div>
    </RadioChoice>
  );
}

/** Cancelling asks once more, in words that say what it means, before anything is sent. */
function CancelStandingOrder({ sending, send }: { sending: boolean; send: Send }) {
  const [confirming, setConfirming] = useState(false);
  // Where focus goes as the question opens or closes: the question, or back to the button that asked it.
  const [moved, setMoved] = useState(false);
  const questionId = useId();
  const questionRef = useRef<HTMLParagraphElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!moved) return;
    (confirming ? questionRef : cancelRef).current?.focus();
  }, [confirming, moved]);
  const ask = (open: boolean) => {
    setMoved(true);
    setConfirming(open);
  };
  if (!confirming)
    return (
      <ActionBlock hint="Cancel to stop every payment and delivery still to come.">
        <button
          ref={cancelRef}
          type="button"
          className="button button--secondary"
          disabled={sending}
          onClick={() => ask(true)}
        >
          Cancel standing order
        </button>
      </ActionBlock>
    );
  return (
    <fieldset aria-labelledby={questionId} className="repeat">
      <p id={questionId} ref={questionRef} tabIndex={-1}>
        Cancel your standing order? We will take no more payments for it, and this cannot be undone here.
      </p>
      <div className="actions">
        <ChangeButton
          primary
          sending={sending}
          onClick={() =>
            send(
              { action: 'cancel' },
              () => `Your standing order is cancelled: we will take no more payments for it. ${EMAILED}`,
            )
          }
        >
          Yes, cancel it
        </ChangeButton>
        <ChangeButton sending={sending} onClick={() => ask(false)}>
          No, keep it
        </ChangeButton>
      </div>
    </fieldset>
  );
}

/** A change's button: disabled while any change is being saved, so one click sends one change. */
function ChangeButton({
  primary = false,
  sending,
  onClick,
  children,
}: {
  primary?: boolean;
  sending: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={`button ${primary ? 'button--primary' : 'button--secondary'}`}
      disabled={sending}
      onClick={onClick}
    >
      {children}
    </button>
  );
}
