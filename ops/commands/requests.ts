import { formatLondonTime } from '../../shared/dispatch';
import { CONFIRM_FLAGS, CONFIRM_HELP, confirmPlan, planDecline, planRequestPayment } from '../confirm';
import type { ShopCommand } from './command';

/* Answering order requests taken while the shop took requests: `request-payment` or `decline`. */

export const requestPaymentCommand: ShopCommand = {
  summary: 'Email an order request a Stripe payment link',
  usage: `request-payment <reference> ${CONFIRM_FLAGS}`,
  details: ['Paying the link makes an ordinary order (confirmation emails, dispatch list).', ...CONFIRM_HELP],
  positionals: 'one',
  async run(shop, values, [reference = ''], io) {
    if (!(await confirmPlan(io, values, () => planRequestPayment(shop.api, reference)))) return;
    const result = await shop.api.requestPayment({ reference });
    io.out(
      `${result.reference}: payment link emailed (valid until ${formatLondonTime(result.expiresAt, io.now())}): ${result.url}`,
    );
  },
};

export const declineCommand: ShopCommand = {
  summary: 'Decline an order request and email the customer',
  usage: `decline <reference> ${CONFIRM_FLAGS}`,
  details: CONFIRM_HELP,
  positionals: 'one',
  async run(shop, values, [reference = ''], io) {
    if (!(await confirmPlan(io, values, () => planDecline(shop.api, reference)))) return;
    const result = await shop.api.decline({ reference });
    io.out(
      result.withheld === undefined
        ? `${result.reference}: declined; customer ${result.email === 'sent' ? 'emailed' : 'not emailed (already sent)'}.`
        : `${result.reference}: declined; no email: ${result.withheld}.`,
    );
  },
};
