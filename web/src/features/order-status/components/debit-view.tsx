import type { DebitPageView } from '../../../../../shared/order-page';
import { formatGbp } from '../../../../../shared/pricing';
import { Reference } from '../../../components/ui/reference';
import { SummaryLine } from '../../../components/ui/summary-line';
import { SELLER } from '../../../lib/seller';
import { SellerContact } from './seller-contact';

/**
 * The order page while its Direct Debit is with the bank, or after the bank refused it (ADR 0047):
 * never "paid", and no correction of the details until there is an order to correct.
 */
export function DebitView({ view }: { view: DebitPageView }) {
  const waiting = view.status === 'awaiting-payment';
  return (
    <>
      <title>{`Order ${view.reference} · ${SELLER.shopName}`}</title>
      <section className="card" aria-labelledby="order-heading">
        <p className="eyebrow">Your order</p>
        <h1 id="order-heading">
          {waiting ? 'Waiting for your bank' : 'Your bank did not pay the Direct Debit'}
        </h1>
        <Reference value={view.reference} />
        <p role="status">
          {waiting
            ? `Your order is placed and we are holding your bottles. Your bank has not paid the Direct Debit yet: it can take up to 7 working days. If your bank pays, we dispatch on ${view.dispatchDate} and email you a confirmation; this page then shows your order.`
            : 'The order is cancelled and will not be dispatched. Nothing was taken from your account and you owe us nothing. You are welcome to order again.'}
        </p>
        <dl className="summary__lines">
          <SummaryLine label="Order">{view.item}</SummaryLine>
          <SummaryLine label="Total" total>
            {waiting ? formatGbp(view.totalPence) : `${formatGbp(view.totalPence)} (not taken)`}
          </SummaryLine>
          {waiting ? <SummaryLine label="Dispatch if your bank pays">{view.dispatchDate}</SummaryLine> : null}
        </dl>
      </section>
      <SellerContact seller={view.seller} reference={view.reference} />
    </>
  );
}
