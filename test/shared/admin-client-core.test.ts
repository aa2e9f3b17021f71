import { describe, expect, it } from 'vitest';
import { callAdmin, fetchAdminFile, isAdminAction, sendAdmin } from '../../shared/admin-client-core';

// The admin client's shared half against literal answers: what each status and body comes to
// before the page or the CLI words it (their texts are pinned by their own tests).

/** A fetch that answers `response` and keeps the requests it was given. */
function answering(response: Response) {
  const requests: Array<{ url: string; init: RequestInit | undefined }> = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    requests.push({ url: String(url), init });
    return response;
  };
  return { line: { origin: 'https://shop.test', token: 'id-token-1', fetch }, requests };
}
const jsonAnswer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('sendAdmin', () => {
  it("sends the merchant's ID token as a Bearer token to the path beneath the origin", async () => {
    const { line, requests } = answering(jsonAnswer(200, {}));

    const sent = await sendAdmin(line, '/functions/v1/admin/orders', { method: 'GET', headers: {} });

    expect(sent.kind).toBe('response');
    expect(requests).toEqual([
      {
        url: 'https://shop.test/functions/v1/admin/orders',
        init: { method: 'GET', headers: { Accept: 'application/json', Authorization: 'Bearer id-token-1' } },
      },
    ]);
  });

  it.each([
    ['a 401', jsonAnswer(401, { error: 'Sign in again.' }), 'signedOut'],
    [
      "a 403 for a request that did not come through the shop's address",
      jsonAnswer(403, { error: 'Forbidden', code: 'not-through-cloudfront' }),
      'notThroughSite',
    ],
    [
      'a 403 for an account outside the merchants',
      jsonAnswer(403, { error: 'Forbidden', code: 'not-a-merchant' }),
      'notMerchant',
    ],
    ['a 403 with no JSON (a proxy page)', new Response('<html>403</html>', { status: 403 }), 'notMerchant'],
  ])('%s stops the caller: %s', async (_, response, kind) => {
    const { line } = answering(response);

    expect(await sendAdmin(line, '/functions/v1/admin/orders', { method: 'GET' })).toEqual({ kind });
  });
});

describe('callAdmin', () => {
  it('a 200 the route reads is its value', async () => {
    const { line, requests } = answering(jsonAnswer(200, { records: [] }));

    expect(await callAdmin(line, 'list', { q: 'DM-1', dispatch: undefined })).toEqual({
      kind: 'value',
      value: { records: [] },
    });
    expect(requests[0]?.url).toBe('https://shop.test/functions/v1/admin/orders?q=DM-1');
  });

  it('a 200 the route cannot read is unreadable (an older or newer API)', async () => {
    const { line } = answering(jsonAnswer(200, { rows: [] }));

    expect(await callAdmin(line, 'list', {})).toEqual({ kind: 'unreadable' });
  });

  it("a 400 carries the API's message and fields", async () => {
    const body = { error: 'Check the reference.', fields: { reference: 'Not a reference.' } };
    const { line } = answering(jsonAnswer(400, body));

    expect(await callAdmin(line, 'list', { q: '!' })).toEqual({
      kind: 'error',
      status: 400,
      error: body,
      answer: undefined,
    });
  });

  it('a 502 with an HTML page has no API error', async () => {
    const { line } = answering(new Response('<html>Bad gateway</html>', { status: 502 }));

    expect(await callAdmin(line, 'dispatch', { references: ['DM-1'] })).toEqual({
      kind: 'error',
      status: 502,
      error: undefined,
      answer: undefined,
    });
  });

  it('a 401 on a JSON route is the same stop as sendAdmin says', async () => {
    const { line } = answering(jsonAnswer(401, {}));

    expect(await callAdmin(line, 'list', {})).toEqual({ kind: 'signedOut' });
  });

  it('a 409 whose body the route reads (a dispatch where every order was refused) carries that reading', async () => {
    const body = {
      results: [{ reference: 'DM-1', refused: 'Already dispatched.' }],
      error: 'Already dispatched.',
    };
    const { line } = answering(jsonAnswer(409, body));

    expect(await callAdmin(line, 'dispatch', { references: ['DM-1'] })).toEqual({
      kind: 'error',
      status: 409,
      error: { error: 'Already dispatched.' },
      answer: body,
    });
  });
});

describe('isAdminAction', () => {
  it('a POST may have changed something; a GET did not', () => {
    expect([isAdminAction('dispatch'), isAdminAction('list')]).toEqual([true, false]);
  });
});

describe('fetchAdminFile', () => {
  it("asks for the day's CSV as CSV and gives its response", async () => {
    const { line, requests } = answering(new Response('Reference,Name\n', { status: 200 }));

    const sent = await fetchAdminFile(line, 'dispatchCsv', '2026-12-01');

    expect(sent.kind === 'response' && (await sent.response.text())).toBe('Reference,Name\n');
    expect(requests[0]?.init?.headers).toEqual({ Accept: 'text/csv', Authorization: 'Bearer id-token-1' });
  });

  it('a 404 is the API error; a 403 the stop', async () => {
    const missing = answering(jsonAnswer(404, { error: 'No dispatch on that day.' })).line;
    const forbidden = answering(jsonAnswer(403, { error: 'Forbidden', code: 'not-a-merchant' })).line;

    expect(await fetchAdminFile(missing, 'packingSlips', '2026-12-01')).toEqual({
      kind: 'error',
      status: 404,
      error: { error: 'No dispatch on that day.' },
      answer: undefined,
    });
    expect(await fetchAdminFile(forbidden, 'packingSlips', '2026-12-01')).toEqual({ kind: 'notMerchant' });
  });
});
