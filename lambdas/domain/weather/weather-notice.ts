import {
  addDays,
  formatDispatchDate,
  type IsoDate,
  isWorkingDay,
  londonDate,
} from '../../../shared/dispatch';
import { logger } from '../../lib/logger';
import type { MetricsWriter } from '../../lib/metrics';
import { type EmailContent, type EmailRow, renderEmail } from '../emails/render';
import type { EmailSender } from '../emails/send-email';
import { sendEmailOnce } from '../emails/send-email-once';
import { putIfAbsent } from '../storage/conditional-writes';
import { PARTITION_KEY, TTL_ATTRIBUTE, weatherNoticeKey } from '../storage/orders-table';
import { emailClaimStore } from '../storage/send-once';
import { checkWeather, type OrderWeather, type WeatherDeps } from './weather-check';

export interface WeatherNoticeDeps extends WeatherDeps {
  sender: EmailSender;
  merchantEmail: string;
  shopName: string;
  /** The shop's origin: the email links to its /admin week. */
  siteUrl: string;
  /** Where the forecast key's metric goes: stdout (EMF) unless a test collects it. */
  metrics?: MetricsWriter | undefined;
}

export type WeatherNoticeResult =
  | { outcome: 'no dispatch tomorrow' | 'none at risk'; day: IsoDate }
  | { outcome: 'sent' | 'sent before'; day: IsoDate; atRisk: number };

/** A notice's record outlives its day by a week, then DynamoDB deletes it. */
const NOTICE_RECORD_SECONDS = 8 * 86_400;

/** The merchant's email: which orders of tomorrow are at risk and why, and the week to act in. */
export function renderWeatherNotice(
  day: IsoDate,
  atRisk: readonly OrderWeather[],
  shopName: string,
  siteUrl: string,
): EmailContent {
  const dayText = formatDispatchDate(day);
  const orders = atRisk.length === 1 ? '1 order' : `${atRisk.length} orders`;
  const rows: EmailRow[] = atRisk.map((o) => [o.reference, o.move?.why ?? o.reason, { mono: false }]);
  // One day for all (the usual frost of a day) reads as before; otherwise each row names its own.
  const days = new Set(atRisk.map((o) => o.move?.to));
  const [only] = days;
  const them = atRisk.length === 1 ? 'it' : 'them';
  const delay =
    days.size === 1 && typeof only === 'string'
      ? `Delay ${them} to ${formatDispatchDate(only)} in the week`
      : `Delay ${them} in the week, each to its first fine day (below)`;
  return renderEmail(
    `Weather: ${orders} at risk for ${dayText}`,
    [
      { kind: 'heading', text: `${orders} at risk from the weather` },
      {
        kind: 'paragraph',
        text: `The forecast puts ${orders} of ${dayText}'s dispatch at risk on the way. ${delay}, or send as planned.`,
      },
      { kind: 'rows', rows },
      { kind: 'button', text: 'Open the week', href: `${siteUrl}/admin` },
    ],
    shopName,
  );
}

/**
 * The day before a working day with paid orders at risk, the merchant is told once (a record per day,
 * claimed). Tomorrow's forecast is known by now (from 18:00 two days ahead); unseen is never "at risk".
 */
export async function notifyWeatherAtRisk(deps: WeatherNoticeDeps): Promise<WeatherNoticeResult> {
  const now = deps.now();
  const day = addDays(londonDate(now), 1);
  if (!isWorkingDay(day)) return { outcome: 'no dispatch tomorrow', day };
  const check = await checkWeather(day, deps);
  const atRisk = check.state === 'checked' ? check.orders.filter((o) => o.verdict === 'at risk') : [];
  if (atRisk.length === 0) return { outcome: 'none at risk', day };
  const pk = weatherNoticeKey(day);
  await putIfAbsent(deps.table, {
    [PARTITION_KEY]: pk,
    day,
    weatherNoticeEmailState: 'pending',
    [TTL_ATTRIBUTE]: Math.floor(now.getTime() / 1000) + NOTICE_RECORD_SECONDS,
  });
  const result = await sendEmailOnce(
    {
      id: pk,
      kind: 'weatherNotice',
      message: () => ({
        to: deps.merchantEmail,
        content: renderWeatherNotice(day, atRisk, deps.shopName, deps.siteUrl),
      }),
      log: { day },
    },
    { store: emailClaimStore(deps.table), sender: deps.sender, now: deps.now },
  );
  if (result.outcome === 'sent') logger.info('Weather notice sent', { day, atRisk: atRisk.length });
  return { outcome: result.outcome === 'sent' ? 'sent' : 'sent before', day, atRisk: atRisk.length };
}
