import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  describeSiteDir,
  NOT_FOUND_MARK_HEADER,
  spaRoutingFunctionCode,
} from '../../infra/lib/constructs/spa-routing';
import { SITE_PAGE_PREFIXES, SITE_PAGES } from '../../shared/site-routes';
import { fakeWebBuild, tempDir } from './support';

/*
 * The CloudFront Function runs in CloudFront's own JavaScript runtime; here it runs in a bare V8
 * context with events shaped like CloudFront's (lower-case header names, { value } objects).
 */

const headersSchema = z.record(z.string(), z.object({ value: z.string() }));
const requestSchema = z.object({ uri: z.string(), headers: headersSchema });
const responseSchema = z.object({ statusCode: z.number(), statusDescription: z.string().optional() });
type CfRequest = z.infer<typeof requestSchema>;

function loadHandler(rootFiles?: readonly string[]): (event: unknown) => unknown {
  const site = describeSiteDir(fakeWebBuild());
  const code = spaRoutingFunctionCode({
    appRoutes: SITE_PAGES,
    appRoutePrefixes: SITE_PAGE_PREFIXES,
    ...site,
    rootFiles: rootFiles ?? site.rootFiles,
  });
  const handler: unknown = runInNewContext(`${code}\nhandler;`, {});
  if (typeof handler !== 'function') throw new Error('the function code defines no handler');
  return (event) => handler(event);
}

const handler = loadHandler();

function viewerRequest(uri: string, headers: Record<string, { value: string }> = {}): CfRequest {
  return requestSchema.parse(
    handler({
      context: { eventType: 'viewer-request' },
      request: { method: 'GET', uri, querystring: {}, headers },
    }),
  );
}

function viewerResponse(request: CfRequest, statusCode = 200): number {
  return responseSchema.parse(
    handler({
      context: { eventType: 'viewer-response' },
      request,
      response: { statusCode, statusDescription: 'OK', headers: {} },
    }),
  ).statusCode;
}

/** The status the viewer gets, whichever request object CloudFront hands the response handler. */
function statusFor(uri: string): { asModified: number; asReceived: number; origin: string } {
  const modified = viewerRequest(uri);
  return {
    origin: modified.uri,
    asModified: viewerResponse(modified),
    asReceived: viewerResponse({ uri, headers: {} }),
  };
}

describe('SPA routing CloudFront Function', () => {
  it.each(['/', '/success', '/privacy', '/terms', '/contact', '/admin'])(
    'serves the app page %s from index.html with 200',
    (uri) => {
      expect(statusFor(uri)).toEqual({ origin: '/index.html', asModified: 200, asReceived: 200 });
    },
  );

  it.each(['/assets/index-abc123.js', '/favicon.svg', '/robots.txt', '/index.html'])(
    'passes the build file %s through untouched',
    (uri) => {
      expect(statusFor(uri)).toEqual({ origin: uri, asModified: 200, asReceived: 200 });
    },
  );

  it.each(['/nope', '/success/', '/SUCCESS', '/admin/login', '/favicon.ico', '/assets'])(
    'serves the app for the unknown path %s with status 404',
    (uri) => {
      expect(statusFor(uri)).toEqual({ origin: '/index.html', asModified: 404, asReceived: 404 });
    },
  );

  it('serves the order page /order/<token> from index.html with 200, whatever the token', () => {
    expect(statusFor('/order/AbC_123-xyz')).toEqual({
      origin: '/index.html',
      asModified: 200,
      asReceived: 200,
    });
  });

  it.each(['/order', '/order/', '/order/abc/more', '/orders/abc'])(
    'serves the app for %s, which is no order page, with status 404',
    (uri) => {
      expect(statusFor(uri)).toEqual({ origin: '/index.html', asModified: 404, asReceived: 404 });
    },
  );

  it('serves each page its own prerendered file when the build has one, and unknown paths 404.html', () => {
    const prerendered = loadHandler([
      '/404.html',
      '/favicon.svg',
      '/index.html',
      '/order.html',
      '/privacy.html',
      '/success.html',
    ]);
    const originFor = (uri: string) =>
      requestSchema.parse(
        prerendered({
          context: { eventType: 'viewer-request' },
          request: { method: 'GET', uri, querystring: {}, headers: {} },
        }),
      );

    expect(originFor('/').uri).toBe('/index.html');
    expect(originFor('/success').uri).toBe('/success.html');
    expect(originFor('/privacy').uri).toBe('/privacy.html');
    // Not prerendered in this build: the app's index.html, which draws the page itself.
    expect(originFor('/terms').uri).toBe('/index.html');
    const unknown = originFor('/nope');
    expect(unknown.uri).toBe('/404.html');
    expect(unknown.headers[NOT_FOUND_MARK_HEADER]).toEqual({ value: '1' });
    expect(originFor('/success.html').uri).toBe('/success.html');
    // The order page's shell, whatever the token (main's web build prerenders order.html).
    expect(originFor('/order/AbC_123-xyz').uri).toBe('/order.html');
  });

  it('drops a not-found mark sent by the viewer, so nobody can make a page 404 through the cache', () => {
    const request = viewerRequest('/', { [NOT_FOUND_MARK_HEADER]: { value: '1' } });

    expect(request.headers[NOT_FOUND_MARK_HEADER]).toBeUndefined();
    expect(viewerResponse(request)).toBe(200);
  });

  it('leaves non-200 answers alone (a 304 revalidation stays a 304)', () => {
    expect(viewerResponse(viewerRequest('/nope'), 304)).toBe(304);
  });

  it('lists the top of the build: its files by name, its folders by prefix', () => {
    expect(describeSiteDir(fakeWebBuild())).toEqual({
      rootFiles: ['/favicon.svg', '/index.html', '/robots.txt'],
      staticPrefixes: ['/assets/'],
    });
  });

  it('refuses a build without index.html', () => {
    expect(() => describeSiteDir(tempDir('empty-web-'))).toThrow(/has no index.html/);
  });

  it('fits the CloudFront Functions size limit (10 KB)', () => {
    const code = spaRoutingFunctionCode({ appRoutes: SITE_PAGES, ...describeSiteDir(fakeWebBuild()) });
    expect(Buffer.byteLength(code)).toBeLessThan(10 * 1024);
  });
});
