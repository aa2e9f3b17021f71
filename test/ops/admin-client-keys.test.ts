import { describe, expect, it } from 'vitest';
import { createAdminClient } from '../../ops/admin-client';

// The CLI's intention keys: one a run's action, kept by its own retry after a lost answer.
describe('the CLI admin client', () => {
  it('resends an action left without an answer once, under the same key; the next action has its own', async () => {
    const keys: Array<string | null> = [];
    let calls = 0;
    const fetch: typeof globalThis.fetch = async (_input, init) => {
      keys.push(new Headers(init?.headers).get('Idempotency-Key'));
      calls += 1;
      if (calls === 1) throw new TypeError('fetch failed');
      return new Response(JSON.stringify({ settings: { mode: 'open' } }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    };
    const api = createAdminClient({
      origin: 'http://shop.test',
      email: 'merchant@live-aquatics.test',
      idToken: async () => 'token',
      fetch,
    });

    await api.resume();
    await api.resume();

    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}-resume-1$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toBe(`${keys[0]?.slice(0, 36)}-resume-2`);
  });
});
