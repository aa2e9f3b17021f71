import { DAPHNIA, PRODUCT_NAME } from '../../../../../shared/product';
import { SummaryLine } from '../../../components/ui/summary-line';

/** "Order: 3 × 1 litre Daphnia": the first line of every payment's summary. */
export function OrderLine({ bottles }: { bottles: number }) {
  return (
    <SummaryLine label="Order">
      {bottles} × {DAPHNIA.bottleSize} {PRODUCT_NAME}
    </SummaryLine>
  );
}
