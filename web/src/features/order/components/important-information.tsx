import { useId } from 'react';
import { liveArrivalStatement, NO_CANCELLATION_STATEMENT } from '../../../../../shared/live-animals';
import { useAppConfig } from '../../../lib/app-context';
import { SELLER } from '../../../lib/seller';

// Six points, in customer words. Live animals are exempt from the 14-day right to cancel, and
// the customer must be told before ordering: this list is that notice. The merchant should
// review the wording. The live-animal wording is shared with the terms and the confirmation
// email, so all three say the same. The first point opens with the stage's trial-run sentence.
const COUNTS_VARY =
  'Daphnia are live, natural stock, so the number in each bottle can vary from the estimate shown.';
const OTHER_POINTS = [
  'If an unforeseen supply issue means we cannot send your order, we will refund you in full.',
  `${NO_CANCELLATION_STATEMENT} ${liveArrivalStatement(SELLER.email)}`,
  'We ship on Mondays only (or on the first working day of the week when Monday is a bank holiday), so your Daphnia do not spend a weekend in transit.',
  'Freezing or extreme weather delays shipment until it is safe for live animals to travel.',
  'You can follow your order status through the email confirmation we send after checkout.',
] as const;

export function ImportantInformation() {
  const headingId = useId();
  const { trialRunNotice } = useAppConfig().claims;
  // One string, so the prerendered HTML holds the sentence whole (no React text separators).
  const points = [trialRunNotice ? `${trialRunNotice} ${COUNTS_VARY}` : COUNTS_VARY, ...OTHER_POINTS];
  return (
    <section className="card card--info" aria-labelledby={headingId}>
      <h2 id={headingId}>Important Information</h2>
      <ul className="info-list">
        {points.map((point) => (
          <li key={point}>{point}</li>
        ))}
      </ul>
      <p className="info-ack">By placing an order, you acknowledge and accept these terms.</p>
    </section>
  );
}
