// The API's answer schemas, in their own chunk: the client loads them (and zod) with its first
// request, in parallel with it, so zod stays out of the page's first load.
export { createCheckoutResponseSchema } from '../../../shared/checkout-response';
export { checkoutStatusSchema } from '../../../shared/checkout-status';
