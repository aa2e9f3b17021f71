import { useId, useState } from 'react';
import { suggestEmailDomain } from '../../../../../shared/email-suggestion';
import { parseUkPostcode } from '../../../../../shared/postcode';
import type { DetailField, DeliveryDetails as Details, FieldErrors } from '../order-form';
import { AddressFields, bindDeliveryFields } from './address-fields';
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
  const bind = bindDeliveryFields(details, errors, onChange);
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
        <AddressFields bind={bind} postcodeHint={postcodeHint} />
      </div>
    </section>
  );
}
