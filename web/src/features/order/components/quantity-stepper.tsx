import { useRef } from 'react';
import { formatGbp, quoteOrder } from '../../../../../shared/pricing';
import { DAPHNIA } from '../../../../../shared/product';
import { MinusIcon, PlusIcon } from '../../../components/ui/more-icons';
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
  const minus = useRef<HTMLButtonElement>(null);
  const plus = useRef<HTMLButtonElement>(null);

  /**
   * A button that reaches its limit is disabled; focus left on it would sit there invisibly, so it
   * moves to the other button, which still does something.
   */
  const step = (by: number) => {
    const next = clampQuantity(quantity + by);
    if (next === DAPHNIA.min) plus.current?.focus();
    if (next === DAPHNIA.max) minus.current?.focus();
    onChange(next);
  };

  return (
    <fieldset className="stepper">
      <legend className="stepper__label">
        How many bottles of Daphnia? (Minimum {DAPHNIA.min}, increments of {DAPHNIA.step})
      </legend>
      <div className="stepper__row">
        <button
          type="button"
          ref={minus}
          className="stepper__button"
          aria-label="Decrease quantity"
          disabled={quantity <= DAPHNIA.min}
          onClick={() => step(-DAPHNIA.step)}
        >
          <MinusIcon />
        </button>
        <div className="stepper__value">
          <p className="stepper__count">
            {quantity} bottles <span className="stepper__size">({DAPHNIA.bottleSize} each)</span>
          </p>
          <p className="stepper__range">approx. {formatAnimalRange(quantity)}</p>
        </div>
        <button
          type="button"
          ref={plus}
          className="stepper__button"
          aria-label="Increase quantity"
          disabled={quantity >= DAPHNIA.max}
          onClick={() => step(DAPHNIA.step)}
        >
          <PlusIcon />
        </button>
      </div>
      <p className="stepper__price">
        <span className="stepper__total">{formatGbp(quote.subtotalPence)}</span>{' '}
        <span className="stepper__each">({formatGbp(quote.unitPricePence)} per bottle)</span>
      </p>
      {/* Announced when it changes, price included: the buttons alone give no feedback to a screen reader. */}
      <p className="visually-hidden" aria-live="polite" aria-atomic="true">
        {quantity} bottles, approx. {formatAnimalRange(quantity)}: {formatGbp(quote.subtotalPence)}, or{' '}
        {formatGbp(quote.totalPence)} with delivery
      </p>
    </fieldset>
  );
}
