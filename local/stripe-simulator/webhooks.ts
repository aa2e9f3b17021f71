import { createHmac } from 'node:crypto';
import { type ClientRequest, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type Stripe from 'stripe';
import { Delays } from './delays';

export interface WebhookEndpoint {
  url: string;
  secret: string;
}

/** One attempt to deliver one event, as the Stripe dashboard lists them. */
export interface WebhookDelivery {
  eventId: string;
  eventType: Stripe.Event.Type;
  /** 1 for the first try, then 2, 3, … for each retry. */
  attempt: number;
  url: string;
  /** The endpoint's HTTP status, or null when no response arrived (see `error`). */
  statusCode: number | null;
  error: string | null;
  /** Stripe counts only a 2xx as delivered; redirects are failures too. */
  ok: boolean;
  /** The `Stripe-Signature` header sent, and its `t=` timestamp: each attempt is signed afresh. */
  signature: string;
  signedAt: number;
}

export interface WebhookSenderOptions {
  endpoint: WebhookEndpoint | undefined;
  retryDelaysMs: readonly number[];
  log: (line: string) => void;
  /** The simulator's clock, which signs each attempt as Stripe's clock would. */
  nowSeconds: () => number;
  timeoutMs?: number;
}

/** Signs exactly as Stripe does: HMAC-SHA256 of `${t}.${payload}` with the endpoint secret, hex encoded. */
export function signatureHeader(payload: string, secret: string, timestamp: number): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

/**
 * Delivers events at least once: the first attempt straight away, then a retry after each of
 * `retryDelaysMs` until one answers 2xx. Each event goes to the endpoint configured when it was
 * created, as Stripe sends an event to the endpoints that existed at the time.
 */
export class WebhookSender {
  readonly deliveries: WebhookDelivery[] = [];
  private endpoint: WebhookEndpoint | undefined;
  private readonly retryDelaysMs: readonly number[];
  private readonly log: (line: string) => void;
  private readonly nowSeconds: () => number;
  private readonly timeoutMs: number;
  private pending = 0;
  private closed = false;
  private idleWaiters: Array<() => void> = [];
  private readonly delays = new Delays();
  private readonly requests = new Set<ClientRequest>();

  constructor(options: WebhookSenderOptions) {
    this.endpoint = options.endpoint;
    this.retryDelaysMs = options.retryDelaysMs;
    this.log = options.log;
    this.nowSeconds = options.nowSeconds;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  setEndpoint(endpoint: WebhookEndpoint | undefined): void {
    this.endpoint = endpoint;
  }

  /** Resolves once the first attempt has finished, whatever its outcome; retries carry on in the background. */
  send(event: Stripe.Event): Promise<void> {
    const endpoint = this.endpoint;
    if (endpoint === undefined || this.closed) {
      const reason = this.closed ? 'simulator closed' : 'no endpoint configured';
      this.log(`webhook ${event.type} ${event.id}: ${reason}, not sent`);
      return Promise.resolve();
    }
    // Serialised once, pretty-printed like Stripe's payloads: every retry carries the same bytes.
    const payload = JSON.stringify(event, null, 2);
    this.pending += 1;
    const first = this.attempt(endpoint, event, payload, 1);
    void first
      .then(async (delivered) => {
        for (let index = 0; !delivered && index < this.retryDelaysMs.length; index += 1) {
          if (!(await this.delays.wait(this.retryDelaysMs[index] ?? 0))) return;
          delivered = await this.attempt(endpoint, event, payload, index + 2);
        }
      })
      .finally(() => {
        this.pending -= 1;
        if (this.pending === 0) this.flushIdleWaiters();
      });
    return first.then(() => undefined);
  }

  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Cancels pending retries and in-flight requests. */
  close(): void {
    this.closed = true;
    this.delays.cancelAll();
    for (const request of this.requests) request.destroy(new Error('simulator closed'));
  }

  private flushIdleWaiters(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private attempt(
    endpoint: WebhookEndpoint,
    event: Stripe.Event,
    payload: string,
    attempt: number,
  ): Promise<boolean> {
    const signedAt = this.nowSeconds();
    const signature = signatureHeader(payload, endpoint.secret, signedAt);
    return new Promise((resolve) => {
      let settled = false;
      const finish = (statusCode: number | null, error: string | null) => {
        if (settled) return;
        settled = true;
        const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
        const { id: eventId, type: eventType } = event;
        this.deliveries.push({
          eventId,
          eventType,
          attempt,
          url: endpoint.url,
          statusCode,
          error,
          ok,
          signature,
          signedAt,
        });
        this.log(
          `webhook ${eventType} ${eventId} attempt ${attempt} → ${statusCode ?? error ?? 'no answer'}`,
        );
        resolve(ok);
      };
      if (!URL.canParse(endpoint.url)) {
        finish(null, `invalid webhook URL: ${endpoint.url}`);
        return;
      }
      const url = new URL(endpoint.url);
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const request = send(url, {
        method: 'POST',
        // No keep-alive: an idle pooled socket would hold the receiver's server open after its test ends.
        agent: false,
        timeout: this.timeoutMs,
        headers: {
          Accept: '*/*; q=0.5, application/xml',
          'Cache-Control': 'no-cache',
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': Buffer.byteLength(payload),
          'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'Stripe-Signature': signature,
        },
      });
      this.requests.add(request);
      request.on('response', (response) => {
        response.resume();
        response.on('end', () => finish(response.statusCode ?? null, null));
        response.on('error', (error) => finish(response.statusCode ?? null, error.message));
      });
      request.on('timeout', () => request.destroy(new Error(`no answer within ${this.timeoutMs} ms`)));
      request.on('error', (error) => finish(null, error.message));
      request.on('close', () => {
        this.requests.delete(request);
        finish(null, 'connection closed before a response');
      });
      request.end(payload);
    });
  }
}
