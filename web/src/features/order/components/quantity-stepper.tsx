import { formatGbp, quoteOrder } from '../../../../../shared/pricing';
import { DAPHNIA } from '../../../../../shared/product';
import { MinusIcon, PlusIcon } from '../../../components/ui/icons';
import { formatAnimalRange } from '../format-animal-range';

interface QuantityStepperProps {
  quantity: number;
  onChange: (quantity: number) => void;
}

/** Moves within 3–9 only, clamped, whatever the caller asks for. */
function clampQuantity(quantity: number): number {
  return Math.min(DAPHNIA.max, Math.max(DAPHNIA.min, quantity));
}

export function QuantityStepper({ quantity, onChange }: QuantityStepperProps) {
  const quote = quoteOrder(quantity);
  return (
    <fieldset className="stepper">
      <legend className="stepper__label">
        How many bottles of Daphnia? (Minimum {DAPHNIA.min}, increments of {DAPHNIA.step})
      </legend>
      <div className="stepper__row">
        <button
          type="button"
          className="stepper__button"
          aria-label="Decrease quantity"
          disabled={quantity <= DAPHNIA.min}
          onClick={() => onChange(clampQuantity(quantity - DAPHNIA.step))}
        >
          <MinusIcon />
        </button>
        {/* Announced when it changes: the buttons alone give no feedback to a screen reader. */}
        <div className="stepper__value" aria-live="polite" aria-atomic="true">
          <p className="stepper__count">
            {quantity} bottles <span className="stepper__size">({DAPHNIA.bottleSize} each)</span>
          </p>
          <p className="stepper__range">approx. {formatAnimalRange(quantity)}</p>
        </div>
        <button
          type="button"
          className="stepper__button"
          aria-label="Increase quantity"
          disabled={quantity >= DAPHNIA.max}
          onClick={() => onChange(clampQuantity(quantity + DAPHNIA.step))}
        >
          <PlusIcon />
        </button>
      </div>
      <p className="stepper__price">
        <span className="stepper__total">{formatGbp(quote.subtotalPence)}</span>{' '}
        <span className="stepper__each">({formatGbp(quote.unitPricePence)} per bottle)</span>
      </p>
    </fieldset>
  );
}
