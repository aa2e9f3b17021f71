import type { ChangeEvent } from 'react';
import { FIELD_LIMITS } from '../../../../../shared/checkout-fields';
import type { DetailField } from '../order-details';
import { TextField } from './text-field';

/** The props a delivery field takes from the form's state. */
interface FieldBinding {
  name: string;
  value: string;
  maxLength: number;
  error: string | undefined;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
}
type Normalise = (value: string) => string;

/**
 * Binds delivery fields to their values: each field's `name` (so a refused one can take focus),
 * value, length limit, error and change handler, its value first passed through `normalise`.
 */
export function bindDeliveryFields<F extends DetailField>(
  values: Record<F, string>,
  errors: Partial<Record<string, string>>,
  onChange: (field: F, value: string) => void,
) {
  return (field: F, normalise: Normalise = (value) => value): FieldBinding => ({
    name: field,
    value: values[field],
    maxLength: FIELD_LIMITS[field],
    error: errors[field],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      onChange(field, normalise(event.target.value)),
  });
}

/** The address and postcode fields, as the checkout asks for them and the order page corrects them. */
export function AddressFields({
  bind,
  postcodeHint,
}: {
  bind: (field: 'address' | 'postcode', normalise?: Normalise) => FieldBinding;
  postcodeHint?: string | undefined;
}) {
  return (
    <>
      <TextField
        multiline
        label="Delivery Address *"
        autoComplete="street-address"
        required
        rows={3}
        {...bind('address')}
      />
      <TextField
        label="Postcode *"
        className="field--postcode"
        autoComplete="postal-code"
        autoCapitalize="characters"
        spellCheck={false}
        required
        hint={postcodeHint}
        // Upper-cased in the value too, not only by CSS: what is seen is what is sent.
        {...bind('postcode', (value) => value.toUpperCase())}
      />
    </>
  );
}
