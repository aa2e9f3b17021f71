/**
 * Field limits. Each also fits a Stripe metadata value (500 characters) and keeps an email
 * readable; the address is the longest thing a courier label takes.
 */
export const FIELD_LIMITS = {
  name: 100,
  email: 254,
  emailLocalPart: 64,
  phone: 30,
  address: 400,
  postcode: 10,
} as const;

/** Messages shown to the customer (toast) and returned by the API, one per rule. */
export const FIELD_MESSAGES = {
  name: 'Please enter your full name (up to 100 characters).',
  email: 'Please enter a valid email address.',
  emailNotAscii:
    'Please enter your email address without accented or special letters before the @: our email service cannot deliver to them.',
  emailDomain: 'Please check the part of your email address after the @: it is not a domain we can send to.',
  emailRefused: 'Our payment provider did not accept this email address. Please check it, or use another.',
  phone: 'Please enter a valid phone number, or leave it empty.',
  address: 'Please enter your delivery address (up to 400 characters).',
  postcodeFormat: 'Please enter a valid UK postcode, for example SW1A 1AA.',
  postcodeNotDeliverable:
    'We can only deliver to Great Britain and Northern Ireland: not to the Channel Islands, the Isle of Man, BFPO or overseas addresses.',
  postcodeBfpo:
    'We cannot send live animals to BFPO addresses. Please give a delivery address in Great Britain or Northern Ireland.',
  quantity: 'Please choose 3, 6 or 9 bottles.',
  repeat: 'Please choose once, every week or every 2 weeks.',
  amount: 'Order amounts must be numbers in pounds with at most 2 decimals.',
  controlCharacters: 'Please remove special or invisible characters.',
  malformedText: 'Please retype this field: it contains characters that are not valid text.',
} as const;
