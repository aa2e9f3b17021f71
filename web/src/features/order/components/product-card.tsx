import { type Ref, useId } from 'react';
import { formatGbp, quoteOrder } from '../../../../../shared/pricing';
import { DAPHNIA, PRODUCT_NAME, PROMO } from '../../../../../shared/product';
import { CheckIcon } from '../../../components/ui/icons';
import { useAppConfig } from '../../../lib/app-context';

// The pack is priced by the product table, so once rather than on every render; the stage's
// promotion only says how it is shown.
const PROMO_QUOTE = quoteOrder(PROMO.bottles);

interface ProductCardProps {
  selected: boolean;
  /** The shop is paused: the product is shown, but cannot be chosen. */
  disabled?: boolean;
  onToggle: () => void;
  ref?: Ref<HTMLButtonElement>;
}

/** The product as a toggle button, named by the product alone: "Daphnia Magna, toggle button, pressed". */
export function ProductCard({ selected, disabled, onToggle, ref }: ProductCardProps) {
  const nameId = useId();
  const detailsId = useId();
  const { promotion } = useAppConfig().claims;
  return (
    <button
      ref={ref}
      type="button"
      className="product-card"
      aria-pressed={selected}
      aria-labelledby={nameId}
      aria-describedby={detailsId}
      disabled={disabled}
      onClick={onToggle}
    >
      <span className="product-card__check" aria-hidden="true">
        {selected ? <CheckIcon /> : null}
      </span>
      <span className="product-card__name" id={nameId}>
        {PRODUCT_NAME}
      </span>
      <span className="product-card__details" id={detailsId}>
        <span className="product-card__count">
          {DAPHNIA.countMin}-{DAPHNIA.countMax} per {DAPHNIA.bottleSize} bottle
        </span>{' '}
        {promotion ? (
          <span className="product-card__prices">
            {/* <s> is not announced by screen readers, so the strike-through is also said in words. */}
            <span className="visually-hidden">Was</span>{' '}
            <s className="product-card__was">{formatGbp(promotion.referencePence)}</s>
            <span className="visually-hidden">, now</span>{' '}
            <span className="product-card__promo">{promotion.wording}</span>
          </span>
        ) : (
          <span className="product-card__prices">
            <span className="product-card__promo">{`${formatGbp(PROMO_QUOTE.subtotalPence)} for ${PROMO.bottles} bottles`}</span>
          </span>
        )}{' '}
        {/* DMCC Act drip pricing: the mandatory delivery charge belongs in the headline price. */}
        <span className="product-card__delivered">{formatGbp(PROMO_QUOTE.totalPence)} delivered</span>{' '}
        <span className="product-card__min">Min. {DAPHNIA.min} bottles</span>
      </span>
      <span className="product-card__state">
        {disabled ? 'Unavailable' : selected ? 'Selected' : 'Select'}
      </span>
    </button>
  );
}
