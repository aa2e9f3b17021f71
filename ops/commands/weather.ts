import { describeClosedDay, reopeningValue } from '../../shared/closed-day';
import { describeOverLimit } from '../../shared/over-limit';
import { describeWeatherThresholds } from '../../shared/weather-thresholds';
import { CONFIRM_FLAGS, CONFIRM_HELP, confirmPlan, fullDate, planDelay } from '../confirm';
import { dispatchDayFor, isoDate, type ShopCommand, text, UsageError } from './command';

/* Moving orders to a later dispatch day: `weather` for those the forecast puts at risk, `delay` for a whole day. */

export const weatherCommand: ShopCommand = {
  summary:
    "The coming dispatch day's orders by the forecast: fine, watch or at risk, and why; --delay moves those at risk",
  usage: `weather [--date next|YYYY-MM-DD] [--delay ${CONFIRM_FLAGS}] [--json]`,
  details: [
    "Reads the forecast at the dispatch postcode (in the seller address) and at each order's postcode,",
    'for the dispatch day and the day after, against the weather thresholds: by default at risk below 0 °C or',
    'above 28 °C, watch below 4 °C or above 24 °C.',
    'Before 18:00 two days ahead it says when it will know.',
    'Each order at risk is planned to its first later working day the forecast already read does not put',
    'at risk; --delay moves each there and emails its customer once. One with no such day within the',
    "forecast is listed and stays: decide by hand. /admin's week does the same in one press.",
    ...CONFIRM_HELP,
  ],
  positionals: 'none',
  async run(shop, values, _p, io) {
    const asked = values.date === undefined || values.date === 'next' ? undefined : values.date;
    const dispatch = asked === undefined ? undefined : await dispatchDayFor(asked, '--date', shop);
    const check = await shop.api.weather({ date: dispatch?.day });
    if (values.json && !values.delay) {
      io.out(JSON.stringify(check, null, 2));
      return;
    }
    if (dispatch?.note) io.out(dispatch.note);
    io.out(check.summary);
    if (check.state === 'checked')
      for (const order of check.orders) {
        io.out(`  ${order.reference}  ${order.verdict.padEnd(7)}  ${order.customerName}: ${order.reason}`);
        if (order.move) io.out(`      ${order.move.to === null ? 'stays' : 'delay'}: ${order.move.why}`);
      }
    if (!values.delay) return;
    // The plan is printed above, order by order; the question comes before anything moves.
    if (!(await confirmPlan(io, values, async () => []))) return;
    const result = await shop.api.delayAtRisk({ date: check.day });
    if (values.json) {
      io.out(JSON.stringify(result, null, 2));
      return;
    }
    for (const order of result.orders)
      io.out(
        order.to === null
          ? `  ${order.reference}  ${order.customerName}: not moved. ${order.why}`
          : `  ${order.reference}  ${order.customerName}: moved to ${fullDate(order.to)}. ${order.why}`,
      );
    const moved = result.moved.length;
    io.out(
      `Moved ${moved} ${moved === 1 ? 'order' : 'orders'} at risk from ${fullDate(result.from)}; delay emails sent: ${result.emailed.length}.`,
    );
    for (const over of result.overLimit ?? []) io.out(describeOverLimit(fullDate(over.date), over));
    const left = result.orders.filter((order) => order.to === null).length;
    if (left > 0) io.out(`Not moved, decide by hand: ${left} ${left === 1 ? 'order' : 'orders'} (above).`);
  },
};

export const delayCommand: ShopCommand = {
  summary: "Move a dispatch day's undispatched orders to a later day and tell each customer",
  usage: `delay --dispatch next|YYYY-MM-DD --to YYYY-MM-DD --reason weather|supply|other ${CONFIRM_FLAGS}`,
  details: [
    '--to: a working day (no weekend or bank holiday) after --dispatch and today, at most 8 weeks ahead.',
    'Each customer is emailed once with the new date; running it again sends nothing more.',
    "Their sold bottles move too, even past the new day's limit (the output then says so).",
    '--dispatch is closed (capacity 0) so checkout does not sell it again; `capacity --set` reopens it.',
    ...CONFIRM_HELP,
  ],
  positionals: 'none',
  async run(shop, values, _p, io) {
    if (values.dispatch === undefined) throw new UsageError('--dispatch needs next or a date as YYYY-MM-DD.');
    const from =
      values.dispatch === 'next'
        ? (await dispatchDayFor('next', '--dispatch', shop)).day
        : isoDate(values.dispatch, '--dispatch');
    const to = isoDate(values.to, '--to');
    const reason = text(values.reason);
    if (reason !== 'weather' && reason !== 'supply' && reason !== 'other')
      throw new UsageError('--reason must be one of: weather, supply, other.');
    if (!(await confirmPlan(io, values, () => planDelay(shop.api, from, to, reason)))) return;
    const result = await shop.api.delay({ from, to, reason });
    io.out(
      `Moved ${result.moved.length} ${result.moved.length === 1 ? 'order' : 'orders'} from ${fullDate(from)} to ${fullDate(to)} (${reason})${result.moved.length ? `: ${result.moved.join(', ')}` : ''}.`,
    );
    io.out(
      `Delay emails sent: ${result.emailed.length}${result.emailed.length ? ` (${result.emailed.join(', ')})` : ''}.`,
    );
    if (result.overLimit) io.out(describeOverLimit(fullDate(to), result.overLimit));
    if (result.closed)
      io.out(
        describeClosedDay(
          fullDate(result.closed.date),
          `npm run orders -- capacity --set ${reopeningValue(result.closed)} --date ${result.closed.date}`,
        ),
      );
  },
};

/** The four thresholds, in the order they read (°C): at risk < watch < fine > watch > at risk. */
const THRESHOLD_FLAGS = {
  'at-risk-below': 'atRiskBelow',
  'watch-below': 'watchBelow',
  'watch-above': 'watchAbove',
  'at-risk-above': 'atRiskAbove',
} as const;

/** A flag's number; anything else goes to the admin API as given, whose schema words the refusal. */
const celsius = (value: string) =>
  value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;

export const weatherThresholdsCommand: ShopCommand = {
  summary: 'The air temperatures (°C) the weather check judges orders by; any flag sets that one',
  usage:
    'weather-thresholds [--at-risk-below C] [--watch-below C] [--watch-above C] [--at-risk-above C] [--json]',
  details: [
    'An order is at risk below --at-risk-below or above --at-risk-above, to watch below --watch-below or',
    'above --watch-above, on the dispatch or the arrival day. Defaults: 0, 4, 24 and 28 °C.',
    'Flags not given keep their value. They must read at-risk-below ≤ watch-below < watch-above ≤',
    'at-risk-above, each from −30 to 50 °C. No email is sent; /admin sets them too (Shop & capacity).',
  ],
  positionals: 'none',
  async run(shop, values, _p, io) {
    let { thresholds } = await shop.api.weatherThresholds();
    const given = Object.entries(THRESHOLD_FLAGS).flatMap(([flag, field]) => {
      const value = text(values[flag]);
      return value === undefined ? [] : [[field, celsius(value)] as const];
    });
    if (given.length > 0)
      ({ thresholds } = await shop.api.setWeatherThresholds({ ...thresholds, ...Object.fromEntries(given) }));
    if (values.json) {
      io.out(JSON.stringify(thresholds, null, 2));
      return;
    }
    io.out(describeWeatherThresholds(thresholds));
    if (given.length > 0) io.out('Saved. No emails sent.');
  },
};
