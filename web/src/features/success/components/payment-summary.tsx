import type { ReactNode } from 'react';
import { DAPHNIA, PRODUCT_NAME } from '../../../../../shared/product';
import { SummaryLine } from '../../../components/ui/summary-line';
import { OrderReference } from './order-reference';

/**
 * The reference, then "Order: 3 × 1 litre Daphnia" and the payment's own lines (`children`). The
 * reference is the status answer's: a one-off's is its session's last 12 characters, as the spec
 * says; a standing order's is its first delivery's order's, the one its confirmation email gives.
 */
export function PaymentSummary({
  reference,
  bottles,
  children,
}: {
  reference: string;
  bottles: number;
  children: ReactNode;
}) {
  return (
    <>
      <OrderReference sessionId={reference} />
      <dl className="summary__lines">
        <SummaryLine label="Order">
          {bottles} × {DAPHNIA.bottleSize} {PRODUCT_NAME}
        </SummaryLine>
        {children}
      </dl>
    </>
  );
}
