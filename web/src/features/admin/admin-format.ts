import type { AdminEmail } from '../../../../shared/admin-responses';
import { formatDispatchDate, formatLondonTime } from '../../../../shared/dispatch';

/** "Monday 30 November" for a dispatch day. */
export const formatDay = (day: string) => formatDispatchDate(day, { today: day });

/** "Wed 25 Nov, 13:15" (London) for an instant. */
export const formatInstant = (instant: string) => formatLondonTime(instant, new Date());

/** "3 bottles" / "1 bottle". */
export const bottlesText = (bottles: number) => `${bottles} ${bottles === 1 ? 'bottle' : 'bottles'}`;

const EMAIL_NAMES: Record<AdminEmail['kind'], string> = {
  confirmation: 'Order confirmation',
  merchantNotice: 'Notice to the shop',
  dispatch: 'Dispatch',
  delay: 'Delay',
  refund: 'Refund',
  trackingUpdate: 'Tracking update',
  partRefund: 'Part refund',
  requestReceived: 'Request received',
  requestNotice: 'Request notice to the shop',
  paymentInvitation: 'Payment link',
  decline: 'Request declined',
  addressCorrected: 'Delivery details updated',
  pageLink: 'New order page link',
};

/** "Dispatch: sent Wed 25 Nov, 13:15" for an email of an order. */
export function emailLine(email: AdminEmail): string {
  const when =
    email.state === 'sent' && email.sentAt
      ? `sent ${formatInstant(email.sentAt)}`
      : email.state === 'failed' && email.failedAt
        ? `failed ${formatInstant(email.failedAt)}`
        : email.state;
  return `${EMAIL_NAMES[email.kind]}: ${when}`;
}
