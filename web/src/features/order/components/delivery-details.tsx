import { useId } from 'react';
import { FIELD_LIMITS } from '../../../../../shared/checkout-request';
import { parseUkPostcode } from '../../../../../shared/postcode';
import type { DetailField, DeliveryDetails as Details } from '../order-form';
import { TextField } from './text-field';

interface DeliveryDetailsProps {
  details: Details;
  invalidFields: readonly DetailField[];
  onChange: (field: DetailField, value: string) => void;
}

/** Shown, not refused: couriers reach Northern Ireland and the Highlands and Islands more slowly. */
export const SLOWER_DELIVERY_HINT =
  'Deliveries to Northern Ireland and the Scottish Highlands and Islands can take a day or two longer.';

/** Spec §2 delivery fields. `name` attributes let the page focus a field the checks refused. */
export function DeliveryDetails({ details, invalidFields, onChange }: DeliveryDetailsProps) {
  const headingId = useId();
  const invalid = (field: DetailField) => invalidFields.includes(field);
  const postcode = parseUkPostcode(details.postcode);
  const postcodeHint = postcode.ok && postcode.slowerDelivery ? SLOWER_DELIVERY_HINT : undefined;
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>Delivery Details</h2>
      <div className="fields">
        <TextField
          label="Full Name *"
          name="name"
          autoComplete="name"
          required
          maxLength={FIELD_LIMITS.name}
          value={details.name}
          invalid={invalid('name')}
          onChange={(event) => onChange('name', event.target.value)}
        />
        <TextField
          label="Email *"
          name="email"
          type="email"
          autoComplete="email"
          required
          maxLength={FIELD_LIMITS.email}
          value={details.email}
          invalid={invalid('email')}
          onChange={(event) => onChange('email', event.target.value)}
        />
        <TextField
          label="Phone Number (Optional)"
          name="phone"
          type="tel"
          autoComplete="tel"
          maxLength={FIELD_LIMITS.phone}
          value={details.phone}
          invalid={invalid('phone')}
          onChange={(event) => onChange('phone', event.target.value)}
        />
        <TextField
          multiline
          label="Delivery Address *"
          name="address"
          autoComplete="street-address"
          required
          rows={3}
          maxLength={FIELD_LIMITS.address}
          value={details.address}
          invalid={invalid('address')}
          onChange={(event) => onChange('address', event.target.value)}
        />
        <TextField
          label="Postcode *"
          name="postcode"
          className="field--postcode"
          autoComplete="postal-code"
          autoCapitalize="characters"
          spellCheck={false}
          required
          maxLength={FIELD_LIMITS.postcode}
          value={details.postcode}
          invalid={invalid('postcode')}
          hint={postcodeHint}
          // Upper-cased in the value too, not only by CSS: what is seen is what is sent.
          onChange={(event) => onChange('postcode', event.target.value.toUpperCase())}
        />
      </div>
    </section>
  );
}
