import { customerEmail, type SellerDetails } from './common';
import type { EmailContent, EmailRow } from './render';

// A payment the bank or the card refused (a failed Direct Debit, a standing order's failed renewal):
// the customer's email and the merchant's rows, laid out once for both.

/** What the customer's email says: what happened, the rows of what it was for, what to do next. */
export interface NotTakenEmail {
  subject: string;
  customerName: string;
  happened: string;
  rows: EmailRow[];
  next: string;
  button: { text: string; href: string };
}

/** To the customer: nothing was taken and nothing will be sent for it; how to put it right. */
export function renderPaymentNotTaken(email: NotTakenEmail, seller: SellerDetails): EmailContent {
  return customerEmail(seller, email.subject, email.customerName, [
    { kind: 'paragraph', text: email.happened },
    { kind: 'rows', rows: email.rows },
    { kind: 'paragraph', text: email.next },
    { kind: 'button', ...email.button },
  ]);
}

/** The merchant's rows naming whom to reach: name, email, and phone ("(not given)" without one). */
export function customerContactRows(customer: {
  customerName: string;
  customerEmail: string;
  customerPhone: string;
}): EmailRow[] {
  return [
    ['Name', customer.customerName],
    ['Email', customer.customerEmail],
    ['Phone', customer.customerPhone === '' ? '(not given)' : customer.customerPhone],
  ];
}
