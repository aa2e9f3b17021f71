import { describe, expect, it } from 'vitest';
import {
  orderPageKeys,
  orderPageLinks,
  orderPageToken,
  readOrderPageToken,
  samePageKey,
} from '../../../lambdas/domain/order-page-token';

const SECRET = 'a-test-order-page-secret-of-40-characters';
const keys = orderPageKeys(SECRET);
const SESSION = 'cs_test_a1B2c3D4e5F6g7H8';
const PAGE_KEY = 'AAECAwQFBgcICQoLDA0ODw';

describe('the order page token', () => {
  it('names its order and page key, and is the same each time', () => {
    const token = orderPageToken(SESSION, PAGE_KEY, keys);
    expect(readOrderPageToken(token, keys)).toEqual({ sessionId: SESSION, pageKey: PAGE_KEY });
    expect(orderPageToken(SESSION, PAGE_KEY, keys)).toBe(token);
  });

  it('does not show the Checkout Session id or the page key', () => {
    const token = orderPageToken(SESSION, PAGE_KEY, keys);
    expect(token).not.toContain('cs_test');
    expect(token).not.toContain('a1B2c3D4');
    expect(token).not.toContain(PAGE_KEY);
    expect(Buffer.from(token, 'base64url').toString('latin1')).not.toContain('a1B2c3D4');
  });

  it('refuses a token with any one character changed', () => {
    const token = orderPageToken(SESSION, PAGE_KEY, keys);
    for (const at of [0, 10, 25, token.length - 2]) {
      const swapped = token[at] === 'A' ? 'B' : 'A';
      const tampered = `${token.slice(0, at)}${swapped}${token.slice(at + 1)}`;
      expect(readOrderPageToken(tampered, keys)).toBeUndefined();
    }
  });

  it('opens only the spelling it was written in: the 3 other spellings of its last character are refused', () => {
    const token = orderPageToken(SESSION, PAGE_KEY, keys);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const otherSpellings = [...alphabet]
      .map((last) => `${token.slice(0, -1)}${last}`)
      .filter((spelling) => spelling !== token)
      .filter((spelling) => Buffer.from(spelling, 'base64url').equals(Buffer.from(token, 'base64url')));

    expect(otherSpellings).toHaveLength(3);
    for (const spelling of otherSpellings) expect(readOrderPageToken(spelling, keys)).toBeUndefined();
    expect(readOrderPageToken(token, keys)).toEqual({ sessionId: SESSION, pageKey: PAGE_KEY });
  });

  it('refuses a truncated, empty or foreign token', () => {
    const token = orderPageToken(SESSION, PAGE_KEY, keys);
    expect(readOrderPageToken(token.slice(0, -4), keys)).toBeUndefined();
    expect(readOrderPageToken('', keys)).toBeUndefined();
    expect(readOrderPageToken('cs_test_a1B2c3D4e5F6g7H8', keys)).toBeUndefined();
    expect(readOrderPageToken('../../admin', keys)).toBeUndefined();
  });

  it('refuses a token made under another secret', () => {
    const other = orderPageKeys('another-secret-that-is-long-enough-to-use');
    expect(readOrderPageToken(orderPageToken(SESSION, PAGE_KEY, other), keys)).toBeUndefined();
  });

  it('is revoked once the order holds another page key', () => {
    const claim = readOrderPageToken(orderPageToken(SESSION, PAGE_KEY, keys), keys);
    expect(claim && samePageKey(PAGE_KEY, claim.pageKey)).toBe(true);
    expect(claim && samePageKey('EBESExQVFhcYGRobHB0eHw', claim.pageKey)).toBe(false);
    expect(claim && samePageKey(undefined, claim.pageKey)).toBe(false);
  });

  it('refuses a short secret', () => {
    expect(() => orderPageKeys('short')).toThrow('at least 32 characters');
  });

  it('links to /order/<token> on the shop origin, and not at all without a page key', () => {
    const links = orderPageLinks('https://shop.example', keys);
    expect(links.linkFor({ sessionId: SESSION, pageKey: PAGE_KEY })).toBe(
      `https://shop.example/order/${orderPageToken(SESSION, PAGE_KEY, keys)}`,
    );
    expect(links.linkFor({ sessionId: SESSION })).toBeUndefined();
  });
});
