/**
 * The live-animal wording of the order page, terms and email, in one place so they cannot disagree: no
 * 14-day right to cancel, told before ordering (Consumer Contracts Regulations 2013); the goods at the
 * seller's risk until delivered (Consumer Rights Act 2015), which a DOA policy cannot take away.
 */
export const NO_CANCELLATION_STATEMENT =
  'As live, perishable goods, Daphnia cannot be returned and the 14-day right to cancel does not apply.';

/**
 * The arrival statement. `reference` is given where it is known (the email), so the customer
 * can quote it as it is.
 */
export function liveArrivalStatement(contactEmail: string, reference?: string): string {
  const quoting = reference ? `quoting your order reference ${reference}` : 'quoting your order reference';
  return (
    'We do not offer a dead-on-arrival guarantee beyond your statutory rights, which this does not affect: ' +
    'a few losses in transit are normal with live animals, but your order is our responsibility until it is delivered. ' +
    `If it arrives dead or not as described, email ${contactEmail} on the day of delivery if you can, ${quoting}, ` +
    'with a photo of the bottles, and we will send a replacement or refund you.'
  );
}
