import { type ChangeEvent, useId, useState } from 'react';
import { FIELD_LIMITS } from '../../../../../shared/checkout-fields';
import { suggestEmailDomain } from '../../../../../shared/email-suggestion';
import { parseUkPostcode } from '../../../../../shared/postcode';
import type { DetailField, DeliveryDetails as Details, FieldErrors } from '../order-form';
import { EmailSuggestion } from './email-suggestion';
import { TextField } from './text-field';

interface DeliveryDetailsProps {
  details: Details;
  errors: FieldErrors;
  onChange: (field: DetailField, value: string) => void;
}

/** Shown, not refused: couriers reach Northern Ireland and the Highlands and Islands more slowly. */
export const SLOWER_DELIVERY_HINT =
  'Deliveries to Northern Ireland and the Scottish Highlands and Islands can take a day or two longer.';

/** The delivery fields. `name` attributes let the page focus a field the checks refused. */
export function DeliveryDetails({ details, errors, onChange }: DeliveryDetailsProps) {
  const headingId = useId();
  const postcode = parseUkPostcode(details.postcode);
  const postcodeHint = postcode.ok && postcode.slowerDelivery ? SLOWER_DELIVERY_HINT : undefined;
  // Offered once the customer leaves the field, not while they are still typing "gmail.co".
  const [leftEmail, setLeftEmail] = useState<string>();
  const suggestedEmail = leftEmail === details.email ? suggestEmailDomain(details.email) : undefined;
  const acceptEmail = (email: string) => {
    setLeftEmail(email);
    onChange('email', email);
  };
  /** What every field shares: its name (for focusing), value, length limit, error and change handler. */
  const bind = (field: DetailField, normalise: (value: string) => string = (value) => value) => ({
    name: field,
    value: details[field],
    maxLength: FIELD_LIMITS[field],
    error: errors[field],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      onChange(field, normalise(event.target.value)),
  });
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>Delivery Details</h2>
      <div className="fields">
        <TextField label="Full Name *" autoComplete="name" required {...bind('name')} />
        <TextField
          label="Email *"
          type="email"
          autoComplete="email"
          required
          hint={
            suggestedEmail ? <EmailSuggestion email={suggestedEmail} onAccept={acceptEmail} /> : undefined
          }
          onBlur={(event) => setLeftEmail(event.target.value)}
          {...bind('email')}
        />
        <TextField label="Phone Number (Optional)" type="tel" autoComplete="tel" {...bind('phone')} />
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
      </div>
    </section>
  );
}
