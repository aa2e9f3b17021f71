// The form's shape, apart from the checks: the order page's first load needs these, not the checks.

/** The customer's delivery details, as typed: all strings, phone optional. */
export interface DeliveryDetails {
  name: string;
  email: string;
  phone: string;
  address: string;
  postcode: string;
}
export type DetailField = keyof DeliveryDetails;

export const EMPTY_DETAILS: DeliveryDetails = { name: '', email: '', phone: '', address: '', postcode: '' };

/** A message per field, shown beside it. */
export type FieldErrors = Partial<Record<DetailField, string>>;
