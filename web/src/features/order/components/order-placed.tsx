import { FocusHeading } from '../../../components/ui/focus-heading';
import { Reference } from '../../../components/ui/reference';
import type { PaidMessage } from '../order-memory';

const WORDS = {
  placed: {
    heading: 'Your order is placed',
    text: 'We have received your payment. Your confirmation email with the order details and delivery information is on its way.',
  },
  held: {
    heading: 'Payment received, we are checking your order',
    text: 'We have received your payment and will email you once we have checked your order. You do not need to pay again.',
  },
  pending: {
    heading: 'Your order is placed, waiting for your bank',
    text: 'Your bank is processing your payment, which can take a few working days. You do not need to order again: we will email you as soon as it clears.',
  },
} as const;

/**
 * Shown in the shop tab once the payment it opened went through in the other tab: the order is
 * placed, with its reference, and a new order takes a deliberate click, so nobody pays twice
 * by pressing a button left live on a filled form. A payment held for the merchant to check is
 * never announced as confirmed, nor one the bank is still processing as paid.
 */
export function OrderPlaced({
  message,
  onPlaceAnother,
}: {
  message: PaidMessage;
  onPlaceAnother: () => void;
}) {
  const words = WORDS[message.held ? 'held' : message.pending ? 'pending' : 'placed'];
  return (
    <section className="card card--centered order-placed">
      <FocusHeading level={2}>{words.heading}</FocusHeading>
      <p>{words.text}</p>
      <Reference value={message.reference} />
      <button type="button" className="button button--secondary" onClick={onPlaceAnother}>
        Place another order
      </button>
    </section>
  );
}
