import type { AdminDaySummary, AdminShopRenewals } from '../../shared/admin-responses';
import { formatLondonTime } from '../../shared/dispatch';
import type { SHOP_MODES } from '../../shared/shop-status';
import { CONFIRM_FLAGS, CONFIRM_HELP, confirmPlan, fullDate, planPause, planResume } from '../confirm';
import { capacityNote } from './capacity';
import { type CliIo, type ShopCommand, text } from './command';

/* The shop as a whole: `pause` and `resume` taking orders, and its `status`. */

export const pauseCommand: ShopCommand = {
  summary: 'Stop taking orders (the page shows the message), or take requests without payment',
  usage: `pause --message "..." | pause --requests [--message "..."] ${CONFIRM_FLAGS}`,
  details: [
    'pause --message: checkout answers 503 with the message; the page shows it and disables checkout.',
    'pause --requests: the shop takes order requests without payment; answer them with request-payment or decline.',
    'Takes effect within a few seconds. resume reopens the shop.',
    "Either kind closes this shop's open Stripe checkouts, so no one can pay them; pause --requests",
    'leaves open the payment links sent with request-payment. An order paid in the moment before its',
    'checkout closed is kept and marked "while paused" in list and in its notice: refund or delay it.',
    ...CONFIRM_HELP,
  ],
  positionals: 'none',
  async run(shop, values, _p, io) {
    const mode = values.requests ? 'requests' : 'paused';
    const message = text(values.message);
    if (!(await confirmPlan(io, values, () => planPause(shop.api, io.now(), mode, message)))) return;
    const result = await shop.api.pause({ mode, message });
    const { settings, closed, paymentLinksKept, completedMeanwhile } = result;
    io.out(
      mode === 'paused'
        ? `Shop paused: checkout is refused with "${settings.message ?? ''}".`
        : `Shop taking order requests without payment${settings.message ? ` ("${settings.message}")` : ''}.`,
    );
    const checkouts = (n: number) => `${n} open ${n === 1 ? 'checkout' : 'checkouts'}`;
    io.out(
      closed.length === 0
        ? 'No open checkouts to close.'
        : `Closed ${checkouts(closed.length)} (customers can no longer pay ${closed.length === 1 ? 'it' : 'them'}).`,
    );
    if (paymentLinksKept.length > 0)
      io.out(
        `Left ${paymentLinksKept.length} payment ${paymentLinksKept.length === 1 ? 'link' : 'links'} of order requests open (sent with request-payment).`,
      );
    const one = completedMeanwhile.length === 1;
    if (completedMeanwhile.length > 0)
      io.out(
        `${completedMeanwhile.length} ${one ? 'checkout was completed before it' : 'checkouts were completed before they'} could be closed: ${one ? 'its order is' : 'their orders are'} kept, marked "while paused" in list (refund or delay ${one ? 'it' : 'them'}).`,
      );
    if (result.listingFailed !== undefined)
      io.err(
        `Could not list the open checkouts (Stripe: ${result.listingFailed}): customers may still pay those opened before the pause. Run the same pause again.`,
      );
    for (const { sessionId, message } of result.failed)
      io.err(
        `Could not close ${sessionId} (Stripe: ${message}): it can still be paid. Run the same pause again.`,
      );
    renewalLines(result.renewals, 'paused: no payment taken until resume', io);
  },
};

export const resumeCommand: ShopCommand = {
  summary: 'Take paid orders again',
  usage: `resume ${CONFIRM_FLAGS}`,
  details: CONFIRM_HELP,
  positionals: 'none',
  async run(shop, values, _p, io) {
    if (!(await confirmPlan(io, values, () => planResume(shop.api)))) return;
    const { renewals } = await shop.api.resume();
    io.out('Shop open: checkout takes paid orders again.');
    renewalLines(renewals, 'taking their payments again', io);
  },
};

/** What a pause or resume did to the standing orders' renewals: a line only when it did something. */
function renewalLines(renewals: AdminShopRenewals | undefined, done: string, io: CliIo): void {
  if (renewals === undefined) return;
  const { changed, failed } = renewals;
  if (changed > 0) io.out(`${changed} standing ${changed === 1 ? 'order' : 'orders'} ${done}.`);
  for (const { subscriptionId, message } of failed)
    io.err(
      `Could not set standing order ${subscriptionId} at Stripe (${message}): run the same command again (the reconciler also does, every 15 minutes).`,
    );
}

export const statusCommand: ShopCommand = {
  summary: 'Whether the shop is open, paused or taking requests, and the next dispatch day',
  usage: 'status',
  details: [],
  positionals: 'none',
  async run(shop, _v, _p, io) {
    // The weather is a line of its own: a check that fails never hides the week.
    const [week, weather] = await Promise.all([
      shop.api.status(),
      shop.api.weather().then(
        (check) => check.summary,
        (error: unknown) =>
          `Weather: not checked (${error instanceof Error ? error.message : 'the admin API did not answer'}).`,
      ),
    ]);
    const { shop: settings } = week;
    const modes: Record<(typeof SHOP_MODES)[number], string> = {
      open: 'open (taking paid orders)',
      paused: 'paused (checkout refused)',
      requests: 'taking order requests without payment',
    };
    io.out(
      `Shop: ${modes[settings.mode]}${settings.message ? `; message: "${settings.message}"` : ''}${settings.modeSince ? ` (since ${formatLondonTime(settings.modeSince, io.now())})` : ''}.`,
    );
    const summary = (day: AdminDaySummary) =>
      `${day.orders} ${day.orders === 1 ? 'order' : 'orders'}, ${day.bottles} bottles${capacityNote(day)}`;
    io.out(`Next dispatch: ${fullDate(week.next.date)}: ${summary(week.next)}.`);
    // Orders on any other day (moved by a delay, or left from a past week) are never hidden.
    for (const day of week.overdue) io.out(`Overdue: ${fullDate(day.date)}: ${summary(day)}.`);
    for (const day of week.later) io.out(`Then: ${fullDate(day.date)}: ${summary(day)}.`);
    io.out(weather);
  },
};
