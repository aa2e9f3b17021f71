import { describe, expect, it } from 'vitest';
import { readJson } from '../../shared/read-json';

describe('readJson', () => {
  it('reads a JSON answer', async () => {
    const response = new Response('{"reference":"AB12CD34EF56","pence":325}');
    expect(await readJson(response)).toEqual({ reference: 'AB12CD34EF56', pence: 325 });
  });

  it("gives undefined for a proxy's HTML page instead of throwing", async () => {
    const response = new Response('<html><body>502 Bad Gateway</body></html>', { status: 502 });
    expect(await readJson(response)).toBeUndefined();
  });

  it('gives undefined for an answer cut short', async () => {
    expect(await readJson(new Response('{"reference":"AB12'))).toBeUndefined();
  });

  it('gives undefined for an empty body', async () => {
    expect(await readJson(new Response(null, { status: 204 }))).toBeUndefined();
  });
});
