import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Set by the viewer-request handler on paths that are not pages (a viewer's own copy is dropped). */
export const NOT_FOUND_MARK_HEADER = 'x-shop-not-found';

/** What the CloudFront Function must know about the deployed build. */
export interface SpaRoutingOptions {
  /** Paths of the app's pages, e.g. `/`, `/success`. */
  readonly appRoutes: readonly string[];
  /** Prefixes of the app's pages with a value in their path, e.g. `/order/`. @default none */
  readonly appRoutePrefixes?: readonly string[];
  /** Files at the top of the build, as paths, e.g. `/index.html`, `/favicon.svg`, `/robots.txt`. */
  readonly rootFiles: readonly string[];
  /** Folders at the top of the build, as path prefixes, e.g. `/assets/`. */
  readonly staticPrefixes: readonly string[];
}

/** The build's top level: files served as they are, folders (`/assets/`, `web/public/`'s) by prefix. */
export function describeSiteDir(siteDir: string): Pick<SpaRoutingOptions, 'rootFiles' | 'staticPrefixes'> {
  if (!existsSync(join(siteDir, 'index.html'))) {
    throw new Error(`The web build at ${siteDir} has no index.html`);
  }
  const entries = readdirSync(siteDir, { withFileTypes: true });
  return {
    rootFiles: entries
      .filter((e) => e.isFile())
      .map((e) => `/${e.name}`)
      .sort(),
    staticPrefixes: entries
      .filter((e) => e.isDirectory())
      .map((e) => `/${e.name}/`)
      .sort(),
  };
}

/**
 * The CloudFront Function (cloudfront-js-2.0) giving the app real status codes without custom error
 * responses, which would also rewrite the API's 404s. Viewer request: an app page (or `/order/<token>`)
 * from its prerendered file, else `/index.html`; build files pass; anything else `/404.html`, marked.
 * Viewer response: a marked path's 200 becomes a 404. Only on the S3 behaviour.
 */
export function spaRoutingFunctionCode(options: SpaRoutingOptions): string {
  const asSet = (paths: readonly string[]): string =>
    JSON.stringify(Object.fromEntries(paths.map((p) => [p, true])));
  return `var APP_ROUTES = ${asSet(options.appRoutes)};
var ROOT_FILES = ${asSet(options.rootFiles)};
var STATIC_PREFIXES = ${JSON.stringify(options.staticPrefixes)};
var APP_PREFIXES = ${JSON.stringify(options.appRoutePrefixes ?? [])};
var MARK = ${JSON.stringify(NOT_FOUND_MARK_HEADER)};

function isFile(uri) {
  if (ROOT_FILES[uri] === true) return true;
  for (var i = 0; i < STATIC_PREFIXES.length; i++) {
    if (uri.indexOf(STATIC_PREFIXES[i]) === 0) return true;
  }
  return false;
}

function prefixedPage(uri) {
  for (var i = 0; i < APP_PREFIXES.length; i++) {
    var rest = uri.slice(APP_PREFIXES[i].length);
    if (uri.indexOf(APP_PREFIXES[i]) === 0 && rest.length > 0 && rest.indexOf('/') === -1) return APP_PREFIXES[i];
  }
  return '';
}

function builtPage(file) {
  return ROOT_FILES[file] === true ? file : '/index.html';
}

function handler(event) {
  var request = event.request;
  if (event.context.eventType === 'viewer-request') {
    delete request.headers[MARK];
    if (APP_ROUTES[request.uri] === true) {
      request.uri = request.uri === '/' ? '/index.html' : builtPage(request.uri + '.html');
    } else if (prefixedPage(request.uri) !== '') {
      request.uri = builtPage(prefixedPage(request.uri).slice(0, -1) + '.html');
    } else if (!isFile(request.uri)) {
      request.uri = builtPage('/404.html');
      request.headers[MARK] = { value: '1' };
    }
    return request;
  }
  var response = event.response;
  var notFound =
    request.headers[MARK] !== undefined ||
    (APP_ROUTES[request.uri] !== true && prefixedPage(request.uri) === '' && !isFile(request.uri));
  if (notFound && response.statusCode === 200) {
    response.statusCode = 404;
    response.statusDescription = 'Not Found';
  }
  return response;
}
`;
}
