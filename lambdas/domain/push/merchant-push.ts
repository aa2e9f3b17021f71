import { type MerchantPushKind, merchantPushPayload } from '../../../shared/merchant-push';
import { logger } from '../../lib/logger';
import { isPushEndpointAllowed, type PushSender } from '../../lib/web-push';
import type { ShopTable } from '../storage/orders-table';
import {
  claimMerchantPush,
  pushSubscriptionId,
  readPushSubscriptions,
  removePushSubscription,
  savePushSubscription,
} from '../storage/push-subscriptions';

/** What pushing needs: the table, the stage's sender (undefined without VAPID keys), a clock. */
export interface MerchantPushDeps {
  table: ShopTable;
  pushSender: () => Promise<PushSender | undefined>;
  now: () => Date;
}

/** One event to tell the merchants of: its item (where the push is claimed once), kind and words. */
export interface MerchantPushEvent {
  pk: string;
  kind: MerchantPushKind;
  reference: string;
  detail: string;
}

export type MerchantPushResult =
  | { outcome: 'off' | 'no-devices' | 'already-pushed' | 'failed' }
  | { outcome: 'pushed'; sent: number; pruned: number; failed: number };

/** The push services' answers that mean the subscription is gone for good (RFC 8030 §7.3). */
const GONE = new Set([404, 410]);

/**
 * Tells every device of a new order, request or failed debit once: claimed on the event's item first, so
 * replays push nothing more; a 404 or 410 subscription is removed. Never throws: the notice email counts.
 */
export async function pushToMerchants(
  event: MerchantPushEvent,
  deps: MerchantPushDeps,
): Promise<MerchantPushResult> {
  const log = { reference: event.reference, kind: event.kind };
  try {
    const sender = await deps.pushSender();
    if (sender === undefined) return { outcome: 'off' };
    const devices = await readPushSubscriptions(deps.table);
    if (devices.length === 0) return { outcome: 'no-devices' };
    if (!(await claimMerchantPush(deps.table, event.pk, deps.now()))) return { outcome: 'already-pushed' };
    const payload = JSON.stringify(merchantPushPayload(event.kind, event.reference, event.detail));
    const answers = await Promise.allSettled(devices.map((device) => sender.send(device, payload)));
    let sent = 0;
    let pruned = 0;
    let failed = 0;
    await Promise.all(
      answers.map(async (answer, i) => {
        const device = devices[i];
        if (device === undefined) return;
        if (answer.status === 'fulfilled' && answer.value >= 200 && answer.value < 300) sent += 1;
        else if (answer.status === 'fulfilled' && GONE.has(answer.value)) {
          if (await removePushSubscription(deps.table, device.id).catch(() => false)) pruned += 1;
        } else {
          failed += 1;
          const reason = answer.status === 'fulfilled' ? `status ${answer.value}` : String(answer.reason);
          logger.warn('A push was not accepted', { ...log, device: device.id, reason });
        }
      }),
    );
    logger.info('Merchant push sent', { ...log, sent, pruned, failed });
    return { outcome: 'pushed', sent, pruned, failed };
  } catch (error) {
    logger.warn('Merchant push failed; the notice email still goes', { ...log, error });
    return { outcome: 'failed' };
  }
}

/** The endpoint a device asked to be pushed at is not one the shop will post to. */
export class PushEndpointRefusedError extends Error {
  constructor() {
    super('The push endpoint must be an https:// address of a push service.');
    this.name = 'PushEndpointRefusedError';
  }
}

/**
 * Keeps a device's subscription for `merchant` (again: keys replaced), only for an endpoint the sender may
 * post to. @throws PushEndpointRefusedError for any other.
 */
export async function subscribeDevice(
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
  merchant: string,
  deps: { table: ShopTable; pushLocalOrigin?: string | undefined; now: () => Date },
): Promise<void> {
  if (!isPushEndpointAllowed(subscription.endpoint, deps.pushLocalOrigin))
    throw new PushEndpointRefusedError();
  const { endpoint, keys } = subscription;
  await savePushSubscription(
    deps.table,
    { merchant, endpoint, p256dh: keys.p256dh, auth: keys.auth },
    deps.now(),
  );
}

/** A device's notifications off: `false` when it was not subscribed. */
export function unsubscribeDevice(endpoint: string, deps: { table: ShopTable }): Promise<boolean> {
  return removePushSubscription(deps.table, pushSubscriptionId(endpoint));
}
