import { idempotencyKeyInUse, idempotencyKeyReused, invalidRequest, type StripeApiError } from './errors';
import type { FormObject } from './form-body';

export interface StoredResponse {
  status: number;
  body: string;
}

/** A finished key as it is kept between runs. */
export interface KeptIdempotencyKey {
  key: string;
  fingerprint: string;
  endpoint: string;
  createdAt: number;
  response: StoredResponse;
}

interface KeyRecord {
  fingerprint: string;
  endpoint: string;
  createdAt: number;
  response: StoredResponse | undefined;
}

/** Stripe forgets a key after 24 hours, after which it may be reused for anything. */
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

export type IdempotencyOutcome =
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'refuse'; error: StripeApiError }
  | { kind: 'execute'; finish: (response: StoredResponse) => void; abandon: () => void };

/**
 * Stripe's idempotency for POST requests: the result of a key's first request is stored and
 * replayed to every retry with the same parameters, a 500 included; a key reused with different
 * parameters, or while its first request is still running, is refused. A request refused by
 * validation stores nothing (the endpoint never started its work), so its key stays free.
 */
export class IdempotencyStore {
  private readonly keys = new Map<string, KeyRecord>();

  /** The keys whose first request finished, for keeping: a retry after a restart still replays. */
  snapshot(): KeptIdempotencyKey[] {
    return [...this.keys].flatMap(([key, { response, ...record }]) =>
      response === undefined ? [] : [{ key, ...record, response }],
    );
  }

  restore(kept: readonly KeptIdempotencyKey[]): void {
    for (const { key, ...record } of kept) this.keys.set(key, record);
  }

  begin(key: string, method: string, path: string, params: FormObject, now: number): IdempotencyOutcome {
    this.forgetOlderThan(now - KEY_LIFETIME_MS);
    const endpoint = `${method} ${path}`;
    const fingerprint = canonicalJson(params);
    const existing = this.keys.get(key);
    if (existing !== undefined) {
      if (existing.endpoint !== endpoint) {
        const error = invalidRequest(
          `Keys for idempotent requests can only be used for the same endpoint they were first used for ` +
            `('${existing.endpoint}' vs '${endpoint}'). Try using a key other than '${key}' if you meant to execute a different request.`,
        );
        return { kind: 'refuse', error };
      }
      if (existing.response === undefined) return { kind: 'refuse', error: idempotencyKeyInUse(key) };
      if (existing.fingerprint !== fingerprint) return { kind: 'refuse', error: idempotencyKeyReused(key) };
      return { kind: 'replay', response: existing.response };
    }
    const record: KeyRecord = { fingerprint, endpoint, createdAt: now, response: undefined };
    this.keys.set(key, record);
    return {
      kind: 'execute',
      finish: (response) => {
        record.response = response;
      },
      abandon: () => this.keys.delete(key),
    };
  }

  private forgetOlderThan(cutoff: number): void {
    for (const [key, record] of this.keys) {
      if (record.createdAt < cutoff && record.response !== undefined) this.keys.delete(key);
    }
  }
}

/** JSON with sorted keys, so the same parameters sent in another order count as the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
