import type Stripe from 'stripe';
import { resourceMissing } from './errors';
import { newId } from './ids';

/** What a create or update sets on an endpoint. */
export interface WebhookEndpointFields {
  url?: string | undefined;
  enabled_events?: string[] | undefined;
  description?: string | undefined;
  metadata?: Stripe.Metadata | undefined;
  disabled?: 'true' | 'false' | undefined;
  api_version?: string | undefined;
}

/**
 * Webhook endpoints as Stripe keeps them: each with its own signing secret, which the API hands
 * out once, in the answer to the create, and never again (retrieve, list and update leave it out).
 * The simulator records endpoints for the code that manages them (`npm run setup`); its own
 * deliveries go to the endpoint given when it starts (`webhook`), not to these.
 */
export class WebhookEndpointStore {
  private readonly endpoints = new Map<string, { endpoint: Stripe.WebhookEndpoint; seq: number }>();
  private nextSeq = 0;

  /** Every endpoint with its secret, for keeping between runs. */
  snapshot(): Array<{ endpoint: Stripe.WebhookEndpoint; seq: number }> {
    return [...this.endpoints.values()].map((entry) => ({ ...entry }));
  }

  restore(kept: ReadonlyArray<{ endpoint: Stripe.WebhookEndpoint; seq: number }>): void {
    for (const entry of kept) {
      this.endpoints.set(entry.endpoint.id, { ...entry });
      this.nextSeq = Math.max(this.nextSeq, entry.seq + 1);
    }
  }

  /** Creates an endpoint and answers with its secret, the only answer that carries it. */
  create(fields: WebhookEndpointFields & { url: string; enabled_events: string[] }, now: number) {
    const endpoint: Stripe.WebhookEndpoint = {
      id: newId.webhookEndpoint(),
      object: 'webhook_endpoint',
      api_version: fields.api_version ?? null,
      application: null,
      created: now,
      description: fields.description ?? null,
      enabled_events: [...fields.enabled_events],
      livemode: false,
      metadata: fields.metadata ?? {},
      secret: newId.webhookSecret(),
      status: fields.disabled === 'true' ? 'disabled' : 'enabled',
      url: fields.url,
    };
    this.endpoints.set(endpoint.id, { endpoint, seq: this.nextSeq++ });
    return endpoint;
  }

  retrieve(id: string): Stripe.WebhookEndpoint {
    return withoutSecret(this.require(id).endpoint);
  }

  update(id: string, fields: WebhookEndpointFields): Stripe.WebhookEndpoint {
    const entry = this.require(id);
    const { endpoint } = entry;
    entry.endpoint = {
      ...endpoint,
      url: fields.url ?? endpoint.url,
      enabled_events: fields.enabled_events ? [...fields.enabled_events] : endpoint.enabled_events,
      description: fields.description ?? endpoint.description,
      metadata: { ...endpoint.metadata, ...fields.metadata },
      status:
        fields.disabled === undefined ? endpoint.status : fields.disabled === 'true' ? 'disabled' : 'enabled',
    };
    return withoutSecret(entry.endpoint);
  }

  delete(id: string): Stripe.DeletedWebhookEndpoint {
    this.require(id);
    this.endpoints.delete(id);
    return { id, object: 'webhook_endpoint', deleted: true };
  }

  /** Newest first, as Stripe lists them. */
  list(): Stripe.WebhookEndpoint[] {
    return [...this.endpoints.values()]
      .sort((a, b) => b.endpoint.created - a.endpoint.created || b.seq - a.seq)
      .map(({ endpoint }) => withoutSecret(endpoint));
  }

  private require(id: string) {
    const entry = this.endpoints.get(id);
    if (entry === undefined) throw resourceMissing('webhook_endpoint', id, 'webhook_endpoint');
    return entry;
  }
}

function withoutSecret(endpoint: Stripe.WebhookEndpoint): Stripe.WebhookEndpoint {
  const { secret: _secret, ...rest } = endpoint;
  return rest;
}
