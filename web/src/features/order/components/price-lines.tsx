import type { ReactNode } from 'react';
import { formatGbp, type Quote } from '../../../../../shared/pricing';

/** One "label: value" row of a summary list (`<dl className="summary__lines">`). */
export function SummaryLine({
  label,
  children,
  total = false,
}: {
  label: string;
  children: ReactNode;
  total?: boolean;
}) {
  return (
    <div className={total ? 'summary__line summary__line--total' : 'summary__line'}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

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
