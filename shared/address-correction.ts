import * as z from 'zod/mini';
import { deliveryFields } from './checkout-request';

/**
 * A delivery correction before packing, from the customer's order page, the admin page and the
 * CLI alike: the checkout's own address, postcode and phone rules, so nothing the checkout would
 * refuse reaches a label this way.
 */
export const addressCorrectionSchema = z.strictObject(deliveryFields);
/** What the page or the CLI sends. */
export type AddressCorrectionBody = z.input<typeof addressCorrectionSchema>;
/** What the domain works with: trimmed, postcode normalised. */
export type AddressCorrection = z.output<typeof addressCorrectionSchema>;
