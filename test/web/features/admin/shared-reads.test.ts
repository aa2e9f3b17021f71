import { describe, expect, it } from 'vitest';
import type { AdminJsonRouteName } from '../../../../shared/admin-routes';
import { type AdminOutcome, sharedReads } from '../../../../web/src/features/admin/admin-api';

/** A call that records each request and answers when the test says, one answer per request. */
function heldCalls() {
  const sent: Array<{ name: AdminJsonRouteName; input: unknown; answer: (value: unknown) => void }> = [];
  const call = (name: AdminJsonRouteName, input: unknown) =>
    new Promise<AdminOutcome<unknown>>((resolve) => {
      sent.push({ name, input, answer: (value) => resolve({ ok: true, value }) });
    });
  return { sent, call: sharedReads(call) };
}

describe('admin reads in flight are shared', () => {
  it('a second status asked while the first is in flight gets its answer, with no second request', async () => {
    const { sent, call } = heldCalls();
    const week = call('status', undefined, undefined);
    const shop = call('status', undefined, undefined);
    expect(sent).toHaveLength(1);
    sent[0]?.answer({ mode: 'open' });
    expect(await week).toEqual({ ok: true, value: { mode: 'open' } });
    expect(await shop).toEqual({ ok: true, value: { mode: 'open' } });
  });

  it('a read asked after the first answered, or with another input, is a request of its own', async () => {
    const { sent, call } = heldCalls();
    const first = call('status', undefined, undefined);
    sent[0]?.answer('first');
    await first;
    const second = call('status', undefined, undefined);
    const other = call('list', { dispatch: '2026-12-07' }, undefined);
    const another = call('list', { dispatch: '2026-12-14' }, undefined);
    expect(sent.map((request) => [request.name, request.input])).toEqual([
      ['status', undefined],
      ['status', undefined],
      ['list', { dispatch: '2026-12-07' }],
      ['list', { dispatch: '2026-12-14' }],
    ]);
    sent[1]?.answer('second');
    expect(await second).toEqual({ ok: true, value: 'second' });
    sent[2]?.answer('7th');
    sent[3]?.answer('14th');
    expect(await other).toEqual({ ok: true, value: '7th' });
    expect(await another).toEqual({ ok: true, value: '14th' });
  });

  it('after an action a read is asked afresh, never answered by one begun before it; actions are never shared', async () => {
    const { sent, call } = heldCalls();
    const before = call('status', undefined, undefined);
    const pause = call('pause', { mode: 'paused', message: 'Back on Monday.' }, undefined);
    const pauseAgain = call('pause', { mode: 'paused', message: 'Back on Monday.' }, undefined);
    const after = call('status', undefined, undefined);
    expect(sent.map((request) => request.name)).toEqual(['status', 'pause', 'pause', 'status']);
    sent[0]?.answer('open');
    sent[3]?.answer('paused');
    expect(await before).toEqual({ ok: true, value: 'open' });
    expect(await after).toEqual({ ok: true, value: 'paused' });
    sent[1]?.answer('done');
    sent[2]?.answer('done again');
    expect(await pause).toEqual({ ok: true, value: 'done' });
    expect(await pauseAgain).toEqual({ ok: true, value: 'done again' });
  });
});
