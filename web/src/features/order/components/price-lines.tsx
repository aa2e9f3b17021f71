import { formatGbp, type Quote } from '../../../../../shared/pricing';
import { SummaryLine } from '../../../components/ui/summary-line';

/** Subtotal, shipping and total from the shared quote (integer pence), as every summary shows them. */
export function PriceLines({ quote, totalLabel }: { quote: Quote; totalLabel: string }) {
  return (
    <>
      <SummaryLine label="Subtotal">{formatGbp(quote.subtotalPence)}</SummaryLine>
      <SummaryLine label="Shipping">{formatGbp(quote.shippingPence)}</SummaryLine>
      <SummaryLine label={totalLabel} total>
        {formatGbp(quote.totalPence)}
      </SummaryLine>
    </>
  );
}
