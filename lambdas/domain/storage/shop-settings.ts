import * as z from 'zod/mini';
import { hasRefusedCharacters } from '../../../shared/refused-characters';
import { SHOP_MESSAGE_MAX_LENGTH, SHOP_MODES, type ShopStatus } from '../../../shared/shop-status';
import { initOnce } from '../../lib/cold-start';
import { RefusedError } from '../refusal';
import { type CapacitySettings, capacityFromItem, capacityItemFields } from './capacity-settings';
import { PARTITION_KEY, SETTINGS_KEY } from './orders-table';

const settingsItemSchema = z.object({
  [PARTITION_KEY]: z.literal(SETTINGS_KEY),
  mode: z.enum(SHOP_MODES),
  message: z.optional(z.string()),
  updatedAt: z.iso.datetime(),
  modeSince: z.optional(z.iso.datetime()),
  ...capacityItemFields,
});
export type ShopSettings = Pick<ShopStatus, 'mode' | 'message'> & {
  /** When the mode or the message was last written (a capacity write never moves it). */
  updatedAt?: string | undefined;
  /**
   * Since when the shop has been in its mode: written only by a write that changes the mode
   * (settings-store.ts). Undefined when not known: no item (open since ever), or an open shop's
   * item from before it was kept.
   */
  modeSince?: string | undefined;
  /** Bottles per dispatch day (lambdas/domain/capacity); absent: no limit. */
  capacity?: CapacitySettings | undefined;
};

/** No settings item yet: a new shop is open. */
export const OPEN_SHOP: ShopSettings = { mode: 'open' };

/**
 * The settings an item holds. A malformed item (a hand edit) reads as paused with no message, not
 * as open: a merchant who tried to stop sales should never find them running.
 */
export function settingsFromItem(item: Record<string, unknown> | undefined): ShopSettings {
  if (item === undefined) return OPEN_SHOP;
  const parsed = settingsItemSchema.safeParse(item);
  if (!parsed.success) return { mode: 'paused' };
  const { mode, message, updatedAt } = parsed.data;
  const capacity = capacityFromItem(parsed.data);
  const modeSince = parsed.data.modeSince ?? legacyModeSince(mode, updatedAt);
  return {
    mode,
    ...(message !== undefined && { message }),
    updatedAt,
    ...(modeSince !== undefined && { modeSince }),
    ...(capacity && { capacity }),
  };
}

/**
 * An item written before `modeSince` was kept. Only a pause writes a mode other than open, and a
 * capacity write never moves an existing `updatedAt`, so a paused shop's `updatedAt` is its last
 * pause. An open shop's may instead be the capacity write that made the item: not known.
 */
function legacyModeSince(mode: ShopSettings['mode'], updatedAt: string): string | undefined {
  return mode === 'open' ? undefined : updatedAt;
}

/**
 * Checks a message the merchant typed: one line, 1 to 300 characters, none of the characters the
 * checkout refuses (refused-characters.ts): customers read it on the shop's page, where a
 * zero-width or bidi character would hide or reorder what it says.
 */
export function checkShopMessage(message: string): string {
  const text = message.trim();
  if (text.length === 0 || text.length > SHOP_MESSAGE_MAX_LENGTH || hasRefusedCharacters(text)) {
    throw new RefusedError(
      `The message must be one line of 1 to ${SHOP_MESSAGE_MAX_LENGTH} characters, without control or invisible characters.`,
    );
  }
  return text;
}

/**
 * A settings reader for the Lambdas: one read per `maxAgeMs` at most (SETTINGS_MAX_AGE_MS, 5 s
 * unless set: lib/config.ts), per container, so a pause reaches every checkout within seconds
 * without a read per request.
 */
export function createSettingsReader(
  read: () => Promise<ShopSettings>,
  maxAgeMs: number,
  now: () => number = Date.now,
): () => Promise<ShopSettings> {
  // A failed read is not kept: the next request tries again.
  return initOnce(read, { maxAgeMs, now });
}

/** create-checkout's view of the settings: cached, and read afresh when the cache proved stale. */
export interface CheckoutSettings {
  /**
   * Cached for `maxAgeMs` (SETTINGS_MAX_AGE_MS): the early refusal, before the body is even read, and the
   * settings a checkout acts on. Its reservation's transaction checks them (checkout-store.ts), so a
   * pause or a lowered limit written meanwhile refuses it however old the copy (the model-based test
   * once found a day set to 0 sold for a cached second, when nothing checked).
   */
  cached: () => Promise<ShopSettings>;
  /** A strongly consistent read, which also replaces the cached copy: after a transaction found it stale. */
  confirmed: () => Promise<ShopSettings>;
}

/** create-checkout's settings over a read that may be consistent (readShopSettings). */
export function createCheckoutSettings(
  read: (consistent: boolean) => Promise<ShopSettings>,
  maxAgeMs: number,
  now: () => number = Date.now,
): CheckoutSettings {
  let kept: { at: number; value: Promise<ShopSettings> } | undefined;
  const keep = (value: Promise<ShopSettings>) => {
    const load = { at: now(), value };
    kept = load;
    // A failed read is not kept: the next request tries again.
    value.catch(() => {
      if (kept === load) kept = undefined;
    });
    return value;
  };
  return {
    cached: () => (kept !== undefined && now() - kept.at < maxAgeMs ? kept.value : keep(read(false))),
    confirmed: () => keep(read(true)),
  };
}
