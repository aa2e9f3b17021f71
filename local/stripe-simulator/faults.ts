export interface FaultSpec {
  /** Answer with this HTTP status and a Stripe `api_error` instead of handling the request. */
  status?: number;
  /** Hold the request this long first; without `status` it is then answered normally. */
  delayMs?: number;
  /**
   * Called when a matching request arrives (after `delayMs`); the request waits until the promise
   * settles. A test orders concurrent work by the request's arrival rather than by a guessed head start.
   */
  hold?: () => Promise<unknown>;
  /** How many matching requests the fault applies to (default 1). */
  times?: number;
  /** How many matching requests pass untouched before it applies (default 0): "the second call fails". */
  skip?: number;
  /** Only requests whose path starts with this, e.g. `/v1/checkout/sessions`. */
  pathPrefix?: string;
  /**
   * The failure happens inside the endpoint, after Stripe took the request's idempotency key, so
   * (like Stripe) the error is stored and replayed to every retry with that key. Without it the
   * failure stands for trouble in front of the API, and a retry with the same key runs afresh.
   */
  storedForKey?: boolean;
}

export interface Fault {
  status: number | undefined;
  delayMs: number;
  hold: (() => Promise<unknown>) | undefined;
  storedForKey: boolean;
}

interface QueuedFault extends Fault {
  remaining: number;
  skip: number;
  pathPrefix: string;
}

/** Faults for API requests, consumed first come first served by the requests they match. */
export class FaultInjector {
  private faults: QueuedFault[] = [];

  add(spec: FaultSpec): void {
    const { status, delayMs = 0, hold, times = 1, skip = 0, pathPrefix = '/', storedForKey = false } = spec;
    if (status === undefined && delayMs <= 0 && hold === undefined)
      throw new Error('injectFault needs a status, a delayMs or a hold');
    if (status !== undefined && (!Number.isInteger(status) || status < 400 || status > 599)) {
      throw new Error(`injectFault status must be an HTTP error status (400-599), not ${status}`);
    }
    if (!Number.isInteger(times) || times < 1)
      throw new Error(`injectFault times must be a positive integer`);
    if (!Number.isInteger(skip) || skip < 0)
      throw new Error('injectFault skip must be zero or a positive integer');
    if (!Number.isFinite(delayMs) || delayMs < 0) throw new Error('injectFault delayMs must be zero or more');
    this.faults.push({ status, delayMs, hold, storedForKey, remaining: times, skip, pathPrefix });
  }

  clear(): void {
    this.faults = [];
  }

  /** The fault this request takes, if any; each match uses up one of the fault's `times`. */
  take(path: string): Fault | undefined {
    const fault = this.faults.find((candidate) => path.startsWith(candidate.pathPrefix));
    if (fault === undefined) return undefined;
    if (fault.skip > 0) {
      fault.skip -= 1;
      return undefined;
    }
    fault.remaining -= 1;
    if (fault.remaining === 0) this.faults = this.faults.filter((candidate) => candidate !== fault);
    return {
      status: fault.status,
      delayMs: fault.delayMs,
      hold: fault.hold,
      storedForKey: fault.storedForKey,
    };
  }
}
