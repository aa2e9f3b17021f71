// What other features may use of the order feature; they import it from here, never from the
// files behind it (biome.json's layer rule), so those files can change without touching them.

export { AddressFields, bindDeliveryFields } from './components/address-fields';
export { TextField } from './components/text-field';
export { announcePaid, paymentUrl } from './order-memory';
