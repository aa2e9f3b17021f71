import { useId } from 'react';
import { quoteOrder } from '../../../../../shared/pricing';
import {
  describeRepeatDeliveries,
  describeRepeatPayments,
  formatRepeatCost,
  REPEAT_CHOICES,
  type Repeat,
} from '../../../../../shared/standing-order';
import { RadioChoice } from '../../../components/ui/radio-choice';
import { useAppConfig } from '../../../lib/app-context';
import { SELLER } from '../../../lib/seller';

/** The choice beside the spec's form: "once" is the spec's one-off order, sent without `repeat`. */
export type RepeatChoiceValue = (typeof REPEAT_CHOICES)[number]['value'];

interface RepeatChoiceProps {
  value: RepeatChoiceValue;
  quantity: number;
  onChange: (value: RepeatChoiceValue) => void;
}

/**
 * Once, every week or every 2 weeks, as native radio buttons (arrow keys move between them), and
 * for a standing order what each delivery costs, when each payment is taken and the coming
 * dispatch days. Worked out on every render from the clock, as the dispatch note is.
 */
export function RepeatChoice({ value, quantity, onChange }: RepeatChoiceProps) {
  const plan = value === 'once' ? undefined : value;
  const quote = quoteOrder(quantity);
  const now = new Date();
  return (
    <RadioChoice legend="How often?" options={REPEAT_CHOICES} value={value} onChange={onChange}>
      {/* There before any plan, so a screen reader hears the price and payments once a repeat is chosen. */}
      <div className="repeat__summary" aria-live="polite">
        {plan ? (
          <>
            <p className="repeat__cost">{formatRepeatCost(quote)}</p>
            <p>{describeRepeatPayments(plan, quote, now)}</p>
          </>
        ) : null}
      </div>
      {plan ? <RepeatDeliveries repeat={plan} now={now} /> : null}
    </RadioChoice>
  );
}

/** The coming payments and dispatch days, and how to stop. */
function RepeatDeliveries({ repeat, now }: { repeat: Repeat; now: Date }) {
  const { dispatchCutoffHours } = useAppConfig();
  const listId = useId();
  return (
    <>
      <p id={listId}>Your first deliveries:</p>
      <ul className="repeat__deliveries" aria-labelledby={listId}>
        {describeRepeatDeliveries(repeat, now, { cutoffHours: dispatchCutoffHours }).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {/* Managing a standing order from its page is not built yet: the shop does it on request. */}
      <p className="repeat__stop">
        To skip a delivery, pause or stop your standing order, reply to your confirmation email or email{' '}
        <a href={`mailto:${SELLER.email}`}>{SELLER.email}</a>.
      </p>
    </>
  );
}
