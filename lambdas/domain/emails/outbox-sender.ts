import { randomUUID } from 'node:crypto';
import { setTimeout } from 'node:timers/promises';
import { logger } from '../../lib/logger';
import type { OrderPageLinks } from '../order-page-token';
import type { ManagedOrder, OutboxEntry, OutboxKind } from '../storage/managed-order';
import type { ShopTable } from '../storage/orders-table';
import { adoptLegacyEmails, entriesInOrder, legacyEmails, readOrder } from '../storage/outbox';
import { claimEntry, clearOutboxDue, handBackEntry, settleEntry } from '../storage/outbox-claims';
import { STALE_CLAIM_MS } from '../storage/send-once';
import type { SellerDetails } from './common';
import {
  renderAddressCorrectedEmail,
  renderDelayEmail,
  renderDispatchEmail,
  renderPageLinkEmail,
  renderPartRefundEmail,
  renderRefundEmail,
  renderTrackingUpdateEmail,
} from './order-updates';
import { type EmailSender, type OutgoingEmail, PermanentEmailRefusalError } from './send-email';

export interface OutboxSenderDeps {
  table: ShopTable;
  sender: EmailSender;
  seller: SellerDetails;
  now: () => Date;
  /** The order page's links: each email's button, made from the page key in its facts. */
  orderPage?: OrderPageLinks | undefined;
}

/** How long a drain waits for another sender's lock (one SES call) before leaving the rest to that sender. */
export const LOCK_WAIT = { attempts: 40, intervalMs: 50 } as const;

/** The most steps one drain takes (claims, sends, retries), however busy the order. */
const MAX_STEPS = 100;

/** The email of one entry, rendered from its facts alone: what the change that wrote it stored. */
export function renderEntry(entry: OutboxEntry, deps: Pick<OutboxSenderDeps, 'seller' | 'orderPage'>) {
  const link = deps.orderPage?.linkFor(entry.facts);
  const message = (content: OutgoingEmail['content']): OutgoingEmail => ({
    to: entry.facts.customerEmail,
    replyTo: deps.seller.email,
    content,
  });
  switch (entry.kind) {
    case 'dispatch':
      return message(renderDispatchEmail(entry.facts, deps.seller, link));
    case 'trackingUpdate':
      return message(renderTrackingUpdateEmail(entry.facts, deps.seller, link));
    case 'delay':
      return message(
        renderDelayEmail(entry.facts, entry.facts.delayedFrom, entry.facts.delayReason, deps.seller, link),
      );
    case 'addressCorrected':
      return message(renderAddressCorrectedEmail(entry.facts, deps.seller, link));
    case 'partRefund':
      return message(renderPartRefundEmail(entry.facts, entry.facts.part, deps.seller, link));
    case 'refund':
      return message(renderRefundEmail(entry.facts, deps.seller, link));
    case 'pageLink':
      if (link === undefined) throw new Error(`No order page link for ${entry.facts.reference}`);
      return message(renderPageLinkEmail(entry.facts, deps.seller, link));
  }
}

/** What one drain did: the entries it sent, and those failed for good (refused by SES, or unrenderable). */
export interface DrainResult {
  sent: string[];
  failed: string[];
}

/** Whether the lock is held by a live sender (not one that crashed STALE_CLAIM_MS ago or more). */
function lockedNow(order: ManagedOrder, now: Date): boolean {
  const lock = order.outboxLock;
  return lock !== undefined && Date.parse(lock.at) > now.getTime() - STALE_CLAIM_MS;
}

/**
 * Sends an order's unsent entries in version order, each once: a claim takes the order's lock (`outboxLock`,
 * free or stale) and moves it to `sending`, SES sends, a mark conditional on the lock's token records `sent`
 * or `failed` (refused for good, or unrenderable) with the kind's flat state, and frees the lock; when none
 * are left the due marker goes. Pre-outbox `pending` flags become entries first (adoptLegacyEmails). The
 * writer drains right after its write; the reconciler sweeps what was left.
 * @throws a transient SES or DynamoDB error, after handing the entry back to `pending`.
 */
export async function drainOutbox(sessionId: string, deps: OutboxSenderDeps): Promise<DrainResult> {
  const result: DrainResult = { sent: [], failed: [] };
  let waited = 0;
  for (let step = 0; step < MAX_STEPS; step += 1) {
    const order = await readOrder(deps.table, sessionId);
    if (legacyEmails(order).length > 0) {
      await adoptLegacyEmails(deps.table, sessionId, deps.now);
      continue;
    }
    const next = entriesInOrder(order).find(
      ([, entry]) => entry.state === 'pending' || entry.state === 'sending',
    );
    const now = deps.now();
    if (next === undefined) {
      if (order.outboxDueAt !== undefined) await clearOutboxDue(order, deps.table);
      return result;
    }
    if (lockedNow(order, now)) {
      if (waited === LOCK_WAIT.attempts) return result;
      waited += 1;
      await setTimeout(LOCK_WAIT.intervalMs);
      continue;
    }
    const [key, entry] = next;
    const token = randomUUID();
    if (!(await claimEntry(order, key, entry, token, now, deps.table))) continue;
    const outcome = await sendClaimed(order, key, entry, token, deps);
    result[outcome].push(key);
  }
  return result;
}

/** `sent`, or `failed` (refused for good, or unrenderable); a transient failure hands it back. */
async function sendClaimed(
  order: ManagedOrder,
  key: string,
  entry: OutboxEntry,
  token: string,
  deps: OutboxSenderDeps,
): Promise<'sent' | 'failed'> {
  let email: OutgoingEmail;
  try {
    email = renderEntry(entry, deps);
  } catch (error) {
    // Rendering is pure on the entry's facts: a retry would fail again and hold back the entries after it.
    logger.error('Outbox entry cannot be rendered: marked failed', { pk: order.pk, entry: key, error });
    const reason = `Unrenderable: ${String(error)}`;
    await settle(order.sessionId, key, entry.kind, token, { state: 'failed', detail: reason }, deps);
    return 'failed';
  }
  let messageId: string;
  try {
    messageId = await deps.sender.send(email);
  } catch (error) {
    if (error instanceof PermanentEmailRefusalError) {
      await settle(order.sessionId, key, entry.kind, token, { state: 'failed', detail: error.reason }, deps);
      return 'failed';
    }
    await handBackEntry(deps.table, order.sessionId, key, token).catch((releaseError: unknown) => {
      logger.warn('Could not hand an outbox entry back; it is retried once its lock is stale', {
        pk: order.pk,
        entry: key,
        error: releaseError,
      });
    });
    throw error;
  }
  await settle(order.sessionId, key, entry.kind, token, { state: 'sent', detail: messageId }, deps);
  return 'sent';
}

/**
 * Marks the entry final and frees the lock (our token); the kind's flat state too while this entry is its
 * kind's newest, so that part is conditional on the version read too.
 */
async function settle(
  sessionId: string,
  key: string,
  kind: OutboxKind,
  token: string,
  final: { state: 'sent' | 'failed'; detail: string },
  deps: OutboxSenderDeps,
): Promise<void> {
  const at = deps.now().toISOString();
  for (let attempt = 0; attempt < MAX_STEPS; attempt += 1) {
    const order = await readOrder(deps.table, sessionId);
    if (order.outboxLock?.token !== token) {
      logger.warn('Outbox email sent, but its lock had been taken over as stale: it may be sent twice', {
        pk: order.pk,
        entry: key,
      });
      return;
    }
    const lastOfKind = new Map(entriesInOrder(order).map(([entryKey, entry]) => [entry.kind, entryKey]));
    const newest = lastOfKind.get(kind) === key;
    const marked = await settleEntry(
      deps.table,
      sessionId,
      key,
      token,
      { ...final, at },
      newest ? { kind, version: order.version ?? 0 } : undefined,
    );
    if (marked) return;
  }
}

/** `sent` when an entry it wrote has gone (any drain's), or this call's drain sent one of `kind`. */
export function emailOutcome(
  order: ManagedOrder,
  written: readonly string[],
  drained: DrainResult,
  kind: OutboxKind,
): 'sent' | 'not-sent' {
  const ours = written.some((key) => order.outbox?.[key]?.state === 'sent');
  const finished = drained.sent.some((key) => order.outbox?.[key]?.kind === kind);
  return ours || finished ? 'sent' : 'not-sent';
}
