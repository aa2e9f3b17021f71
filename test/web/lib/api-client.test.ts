import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../../web/src/lib/api-client';
import { jsonResponse, requestOf, stubFetch } from '../helpers/fake-browser';

const ORDER = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '',
  address: '1 Test Street',
  postcode: 'SW1A 1AA',
  quantity: 3,
  subtotal: 9.75,
  shipping: 4.95,
  total: 14.7,
} as const;

describe('api client', () => {
  it('sends the status lookup to the configured origin, with the bearer when configured', async () => {
    const fetchMock = stubFetch(
      jsonResponse({ status: 'open', reference: 'abc', bottles: 3, total: 1470, dispatchDate: '2026-11-23' }),
    );
    const api = createApiClient({ apiOrigin: 'https://api.example', publicKey: 'pk_1' });

    const result = await api.getCheckoutStatus('cs_test_a&b=c');

    expect(result).toEqual({
      kind: 'found',
      status: { status: 'open', reference: 'abc', bottles: 3, total: 1470, dispatchDate: '2026-11-23' },
    });
    // The id is encoded, so it cannot add parameters of its own.
    expect(requestOf(fetchMock).url).toBe(
      'https://api.example/functions/v1/checkout-status?session_id=cs_test_a%26b%3Dc',
    );
    expect(requestOf(fetchMock).headers.get('Authorization')).toBe('Bearer pk_1');
  });

  it('does not retry an answer the server gave, even an error', async () => {
    const fetchMock = stubFetch(jsonResponse({ error: 'Too many requests' }, 429));
    const api = createApiClient({ apiOrigin: 'https://api.example', publicKey: undefined });

    expect(await api.createCheckout(ORDER)).toEqual({ kind: 'failed' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('gives up on a request that takes too long, without retrying it', async () => {
    const fetchMock = stubFetch();
    fetchMock.mockImplementation(
      (_input, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        }),
    );
    const api = createApiClient({ apiOrigin: 'https://api.example', publicKey: undefined, timeoutMs: 20 });

    expect(await api.createCheckout(ORDER)).toEqual({ kind: 'failed' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('accepts an order received without a payment page', async () => {
    stubFetch(jsonResponse({ status: 'received' }));
    const api = createApiClient({ apiOrigin: 'https://api.example', publicKey: undefined });

    expect(await api.createCheckout(ORDER)).toEqual({ kind: 'received' });
  });
});
