import type { ReactNode } from 'react';
import { DAPHNIA, PRODUCT_NAME } from '../../../../../shared/product';
import { SummaryLine } from '../../../components/ui/summary-line';
import { OrderReference } from './order-reference';

/** The reference, then "Order: 3 × 1 litre Daphnia" and the payment's own lines (`children`). */
export function PaymentSummary({
  sessionId,
  bottles,
  children,
}: {
  sessionId: string;
  bottles: number;
  children: ReactNode;
}) {
  return (
    <>
      <OrderReference sessionId={sessionId} />
      <dl className="summary__lines">
        <SummaryLine label="Order">
          {bottles} × {DAPHNIA.bottleSize} {PRODUCT_NAME}
        </SummaryLine>
        {children}
      </dl>
    </>
  );
}
