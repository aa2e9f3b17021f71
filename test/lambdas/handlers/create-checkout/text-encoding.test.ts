import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeShopSettings } from '../../../../lambdas/domain/storage/settings-store';
import {
  createCheckoutHandler,
  loadCheckoutDeps,
} from '../../../../lambdas/handlers/create-checkout/handler';
import { jsonBody } from '../../../support/api-gateway-event';
import { type StandIns, startStandIns } from '../../../support/stand-ins';
import {
  checkoutEnvironment,
  checkoutEvent,
  createdSession,
  type Harness,
  handleCountingSessions,
  startHarness,
  validOrder,
} from './harness';

// Text that prints as typed. A body that is not UTF-8 (or says it is in another charset) and
// characters that draw nothing are 400s that create nothing: no Stripe session for a paid
// checkout; no table item and no email in requests mode, where checkout itself writes and sends.

let harness: Harness;
let standIns: StandIns;

beforeAll(async () => {
  harness = await startHarness();
  standIns = await startStandIns();
});
afterAll(async () => {
  await standIns?.close();
  await harness?.close();
});

const NAME = 'Zoë Brontë';
const order = { ...validOrder, name: NAME };
const NOT_UTF8 = { error: 'The request body must be UTF-8.' };

/** The order's JSON in Latin-1: "ë" is the one byte 0xEB, which is not UTF-8. */
const latin1Order = Buffer.from(JSON.stringify(order), 'latin1');

/** The order's JSON as UTF-8 bytes with `bytes` in place of the name's "ë"s. */
function orderWithBytes(bytes: number[]): Buffer {
  const [before = '', after = ''] = JSON.stringify({ ...order, name: 'Zo#' }).split('#');
  return Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);
}

/** Bytes as they are, base64-encoded in the event, as API Gateway hands on a body it keeps binary. */
function bytesEvent(bytes: Buffer, contentType = 'application/json'): APIGatewayProxyEventV2 {
  return {
    ...checkoutEvent({ headers: { 'Content-Type': contentType } }),
    body: bytes.toString('base64'),
    isBase64Encoded: true,
  };
}

/** What a proxy that decoded those bytes as UTF-8 regardless would pass on: "Zo\ufffd Bront\ufffd". */
function lossyEvent(bytes: Buffer): APIGatewayProxyEventV2 {
  return checkoutEvent({ body: bytes.toString('utf8') });
}

const REFUSED_BODIES: Array<[string, () => APIGatewayProxyEventV2, unknown]> = [
  ['Latin-1 bytes sent as JSON', () => bytesEvent(latin1Order), NOT_UTF8],
  [
    'Latin-1 bytes declared charset=iso-8859-1',
    () => bytesEvent(latin1Order, 'application/json; charset=iso-8859-1'),
    NOT_UTF8,
  ],
  [
    'UTF-8 bytes declared charset=iso-8859-1 (not guessed at)',
    () => bytesEvent(Buffer.from(JSON.stringify(order)), 'application/json; charset=ISO-8859-1'),
    NOT_UTF8,
  ],
  [
    'a string body declared charset=windows-1252',
    () =>
      checkoutEvent({ body: order, headers: { 'Content-Type': 'application/json;charset="windows-1252"' } }),
    NOT_UTF8,
  ],
  ['a lone continuation byte 0x80', () => bytesEvent(orderWithBytes([0x80])), NOT_UTF8],
  ['an overlong "/" (0xC0 0xAF)', () => bytesEvent(orderWithBytes([0xc0, 0xaf])), NOT_UTF8],
  ['an encoded surrogate (0xED 0xA0 0x80)', () => bytesEvent(orderWithBytes([0xed, 0xa0, 0x80])), NOT_UTF8],
  ['a truncated "€" (0xE2 0x82)', () => bytesEvent(orderWithBytes([0xe2, 0x82])), NOT_UTF8],
  [
    'Latin-1 already decoded to U+FFFD on the way',
    () => lossyEvent(latin1Order),
    {
      error: 'Please retype this field: it contains characters that are not valid text.',
      fields: { name: 'Please retype this field: it contains characters that are not valid text.' },
    },
  ],
];

/** One case each: the classes the rule covers, written out as the code points they are. */
const INVISIBLE: Array<[string, string]> = [
  ['U+2060 word joiner', '\u2060'],
  ['U+180E Mongolian vowel separator', '\u180e'],
  ['U+E0001 language tag', '\u{e0001}'],
  ['U+E0041 tag Latin capital A', '\u{e0041}'],
  ['U+E007F cancel tag', '\u{e007f}'],
  ['U+FFF9 interlinear annotation anchor', '\ufff9'],
  ['U+FFFA interlinear annotation separator', '\ufffa'],
  ['U+FFFB interlinear annotation terminator', '\ufffb'],
  ['U+FFFE noncharacter', '\ufffe'],
  ['U+FFFF noncharacter', '\uffff'],
  ['U+3164 Hangul filler', '\u3164'],
  ['U+2800 braille pattern blank', '\u2800'],
  ['U+115F Hangul choseong filler', '\u115f'],
  ['U+1160 Hangul jungseong filler', '\u1160'],
  ['U+FFA0 halfwidth Hangul filler', '\uffa0'],
  ['U+00AD soft hyphen (Cf)', '\u00ad'],
  ['U+034F combining grapheme joiner (ignorable)', '\u034f'],
  ['U+200B zero-width space', '\u200b'],
  ['U+FEFF zero-width no-break space', '\ufeff'],
];

const INVISIBLE_MESSAGE = 'Please remove special or invisible characters.';

describe('create-checkout (paid): text that would not print as typed is refused, no session', () => {
  it.each(INVISIBLE)('%s in the name: 400, nothing at Stripe', async (_label, char) => {
    const { result, newSessions } = await handleCountingSessions(
      harness,
      checkoutEvent({ body: { ...order, name: `Zoë${char}Brontë` } }),
    );

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result)).toEqual({ error: INVISIBLE_MESSAGE, fields: { name: INVISIBLE_MESSAGE } });
    expect(newSessions).toEqual([]);
  });

  it.each([
    ['a name of Hangul fillers only', { name: '\u3164\u3164' }, 'name'],
    ['an address line of braille blanks only', { address: '1 Pond Lane\n\u2800\u2800\nBristol' }, 'address'],
  ])('%s: 400, nothing at Stripe', async (_label, change, field) => {
    const { result, newSessions } = await handleCountingSessions(
      harness,
      checkoutEvent({ body: { ...order, ...change } }),
    );

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result)).toMatchObject({ fields: { [field]: INVISIBLE_MESSAGE } });
    expect(newSessions).toEqual([]);
  });

  it.each(REFUSED_BODIES)('%s: 400, nothing at Stripe', async (_label, event, answer) => {
    const { result, newSessions } = await handleCountingSessions(harness, event());

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result)).toEqual(answer);
    expect(newSessions).toEqual([]);
  });

  it.each([
    ['plain text', () => checkoutEvent({ body: order })],
    ['base64', () => bytesEvent(Buffer.from(JSON.stringify(order)))],
    [
      'charset=UTF-8',
      () => bytesEvent(Buffer.from(JSON.stringify(order)), 'application/json; charset=UTF-8'),
    ],
    [
      'charset="utf-8"',
      () => checkoutEvent({ body: order, headers: { 'Content-Type': 'application/json; charset="utf-8"' } }),
    ],
    ['a leading byte order mark', () => bytesEvent(Buffer.from(`\ufeff${JSON.stringify(order)}`))],
  ])('UTF-8 as %s: the name reaches Stripe as typed', async (_label, event) => {
    const { sessionId } = createdSession(await harness.handle(event()));

    const session = await harness.stripe.checkout.sessions.retrieve(sessionId);
    expect(session.metadata?.name).toBe('Zoë Brontë');
  });
});

describe('create-checkout (requests mode): refused text writes no item and sends no email', () => {
  it('stores a UTF-8 "Zoë Brontë" as typed, and refuses every other body without a trace', async () => {
    // Prepare: requests mode, and proof that a valid order there is stored and emailed.
    const table = { client: standIns.inspector, tableName: standIns.tableName };
    await writeShopSettings(table, { mode: 'requests' }, new Date());
    try {
      const handle = createCheckoutHandler(() => loadCheckoutDeps(checkoutEnvironment(harness, standIns)));
      const send = (event: APIGatewayProxyEventV2) =>
        handle({ ...event, headers: { ...event.headers, 'idempotency-key': randomUUID() } });
      const control = await send(checkoutEvent({ body: order }));
      expect(jsonBody(control)).toMatchObject({ status: 'received' });
      const stored = JSON.stringify(await standIns.orderItems());
      expect(stored).toContain('Zoë Brontë');
      expect(stored).not.toContain('\ufffd');
      const itemsBefore = await standIns.orderItems();
      const emailsBefore = await standIns.emails();
      expect(emailsBefore.length).toBeGreaterThan(0);

      // Act
      const results = [];
      for (const [, event] of REFUSED_BODIES) results.push(await send(event()));
      for (const [, char] of INVISIBLE) {
        results.push(await send(checkoutEvent({ body: { ...order, address: `1 Pond${char} Lane` } })));
      }

      // Assess
      expect(results.map((result) => result.statusCode)).toEqual(results.map(() => 400));
      expect(await standIns.orderItems()).toEqual(itemsBefore);
      expect(await standIns.emails()).toEqual(emailsBefore);
    } finally {
      await writeShopSettings(table, { mode: 'open' }, new Date());
    }
  });
});
