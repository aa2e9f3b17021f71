import type { AdminOrderView } from '../../shared/admin-responses';
import { formatDispatchDate } from '../../shared/dispatch';
import { formatGbp } from '../../shared/pricing';
import { AdminUnavailableError } from '../admin-client';
import {
  CONFIRM_FLAGS,
  CONFIRM_HELP,
  confirmPlan,
  planAddress,
  planRefund,
  planRevokeLink,
} from '../confirm';
import { IncompleteError, orderIfAnswered, type ShopCommand, text, UsageError } from './command';

/* Changes to one order after it was paid: its delivery details, its page link, a refund. */

export const addressCommand: ShopCommand = {
  summary: "Correct an order's delivery address, postcode or phone before packing; the customer is told once",
  usage: `address <reference> [--address LINE]... [--postcode POSTCODE] [--phone NUMBER] ${CONFIRM_FLAGS}`,
  details: [
    'Each --address is one line of the new address; what is not given stays as it is.',
    "The checkout's own rules apply (UK postcodes only). Refused once the day's packing cut-off has passed.",
    "The order's history keeps before and after; the dispatch CSV and slips use the new details.",
    ...CONFIRM_HELP,
  ],
  positionals: 'one',
  async run(shop, values, [reference = ''], io) {
    const lines = Array.isArray(values.address) ? values.address.filter((v) => typeof v === 'string') : [];
    const postcode = text(values.postcode);
    const phone = text(values.phone);
    if (lines.length === 0 && postcode === undefined && phone === undefined)
      throw new UsageError('Give at least one of --address, --postcode or --phone.');
    const { record: order } = await shop.api.order({ reference });
    const after = {
      address: lines.length > 0 ? lines.join('\n') : order.deliveryAddress,
      postcode: postcode ?? order.postcode,
      phone: phone ?? order.customerPhone,
    };
    if (!(await confirmPlan(io, values, async () => planAddress(order, after)))) return;
    const result = await shop.api.address({ reference, ...after });
    if (!result.changed) {
      io.out(`${result.reference}: those are already its delivery details; nothing changed, nothing sent.`);
      return;
    }
    const o = result.record;
    io.out(`${result.reference}: delivery details corrected for ${formatDispatchDate(o.dispatchDate)}:`);
    io.out(
      `  ${o.deliveryAddress.replace(/\n/g, ', ')} ${o.postcode}${o.customerPhone ? `  phone ${o.customerPhone}` : ''}`,
    );
    io.out(
      result.email === 'sent'
        ? `Confirmation email sent to ${o.customerEmail}.`
        : 'Confirmation email not sent now (already being sent); the order shows its state.',
    );
  },
};

export const revokeLinkCommand: ShopCommand = {
  summary: "Revoke an order's page link (the old one stops opening) and email the customer a new one",
  usage: `revoke-link <reference> ${CONFIRM_FLAGS}`,
  details: [
    'For a link that reached the wrong person: every link sent so far opens nothing any more.',
    'Each run makes a new link and emails it once; run it again only to revoke that one too.',
    ...CONFIRM_HELP,
  ],
  positionals: 'one',
  async run(shop, values, [reference = ''], io) {
    if (!(await confirmPlan(io, values, () => planRevokeLink(shop.api, reference)))) return;
    const revokes = (order: Pick<AdminOrderView, 'history'>) =>
      order.history.filter((entry) => entry.action === 'page-link-revoked').length;
    const before = await shop.api.order({ reference });
    const result = await shop.api.revokePageLink({ reference }).catch(async (error: unknown) => {
      if (!(error instanceof AdminUnavailableError)) throw error;
      // No answer (email down): the order's history says whether the link was revoked all the same.
      const order = await orderIfAnswered(shop, reference);
      if (order === undefined || revokes(order) <= revokes(before.record)) throw error;
      throw new IncompleteError(
        `${order.reference}: order page link revoked (the old link no longer opens), but the new link email could not be sent (${error.status === undefined ? 'no answer' : `HTTP ${error.status}`}). Nothing retries it by itself: run revoke-link ${order.reference} again once email works.`,
      );
    });
    io.out(
      `${result.reference}: order page link revoked (the old link no longer opens); ${
        result.email === 'sent'
          ? `new link emailed to ${result.record.customerEmail}.`
          : 'new link email not sent by this run (another request is sending it): list shows when it has gone.'
      }`,
    );
  },
};

export const refundCommand: ShopCommand = {
  summary: 'Refund an order (what part refunds left of it) through Stripe and email the customer',
  usage: `refund <reference> --reason supply|doa|other [--bottles N] [--delivery] [--again] ${CONFIRM_FLAGS}`,
  details: [
    'Refused for an order already refunded (here or in the Stripe Dashboard).',
    'If Stripe refuses, the order is left unchanged and the reason is printed.',
    '--bottles N and/or --delivery refund that part only (again later, up to what was paid); the',
    'customer is emailed the amount and what it was for. Bottles not dispatched go back on sale.',
    "--reason is needed (no default): the customer's email says it.",
    'The same part as one refunded in the last 15 minutes is refused as a repeat: --again refunds it again on purpose.',
    ...CONFIRM_HELP,
  ],
  positionals: 'one',
  async run(shop, values, [reference = ''], io) {
    const reason = text(values.reason);
    if (reason === undefined)
      throw new UsageError("--reason is needed: supply, doa or other (the customer's email says it)");
    if (reason !== 'supply' && reason !== 'doa' && reason !== 'other')
      throw new UsageError('--reason must be one of: supply, doa, other.');
    if (values.bottles !== undefined || values.delivery === true) {
      const typed = text(values.bottles) ?? '0';
      if (!/^\d{1,2}$/.test(typed)) throw new UsageError('--bottles is a whole number of bottles.');
      const asked = { bottles: Number(typed), delivery: values.delivery === true };
      if (!(await confirmPlan(io, values, () => planRefund(shop.api, reference, reason, asked)))) return;
      const part = await shop.api.refundPart({
        reference,
        ...asked,
        reason,
        ...(values.again === true && { again: true }),
      });
      io.out(
        `${part.reference}: refunded ${formatGbp(part.pence)} (Stripe refund ${part.refundId}, reason ${reason}); ${formatGbp(part.record.partlyRefundedPence ?? part.pence)} of ${formatGbp(part.record.totalPence)} refunded in all; refund email ${part.email === 'sent' ? 'sent' : 'not sent'}.`,
      );
      return;
    }
    if (!(await confirmPlan(io, values, () => planRefund(shop.api, reference, reason)))) return;
    const result = await shop.api.refund({ reference, reason }).catch(async (error: unknown) => {
      if (!(error instanceof AdminUnavailableError)) throw error;
      // No answer: the order says what was done (a refund cannot be made twice).
      const order = await orderIfAnswered(shop, reference);
      if (order?.kind !== 'order') throw error;
      const why = error.status === undefined ? 'no answer' : `HTTP ${error.status}`;
      if (order.status !== 'refunded')
        throw new IncompleteError(
          `The refund did not go through (${why}): ${order.reference} was not refunded and is still ${order.status}. Run refund ${order.reference} again once Stripe answers: it cannot refund twice.`,
        );
      if (order.emails.find((e) => e.kind === 'refund')?.state !== 'sent')
        throw new IncompleteError(
          `${order.reference}: refunded${order.partlyRefundedPence ? ` the remaining ${formatGbp(order.totalPence - order.partlyRefundedPence)}` : ` ${formatGbp(order.totalPence)} in full`}${order.refundId ? ` (Stripe refund ${order.refundId})` : ''}, but the refund email could not be sent (${why}). Run refund ${order.reference} again once email works: it refunds nothing twice and sends the email.`,
        );
      throw error;
    });
    const email = result.refundEmail;
    io.out(
      `${result.reference}: refunded ${result.pence < result.record.totalPence ? `the remaining ${formatGbp(result.pence)} (all ${formatGbp(result.record.totalPence)} now refunded)` : `${formatGbp(result.pence)} in full`} (Stripe refund ${result.refundId}, reason ${reason}); ${
        email.state === 'sent'
          ? `refund email sent${email.by === 'this run' ? '' : ` (by ${email.by})`}`
          : email.state === 'being sent'
            ? 'refund email being sent by the Stripe webhook or another refund request (list shows when it has gone)'
            : 'refund email not sent yet (run refund again to send it)'
      }.`,
    );
  },
};
