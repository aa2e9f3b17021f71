import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { z } from 'zod';
import { ADMIN_CONFIG_PATH, type AdminConfig } from '../../shared/admin-config';
import type { createSiteFiles } from '../static-site';
import { type Assembly, resourcesOfType } from './assembly';
import {
  type CfResponse,
  type CloudFrontFunction,
  loadCloudFrontFunction,
  viewerRequestEvent,
} from './cloudfront-function';
import type { createHttpApi } from './http-api';
import {
  applyResponseHeaders,
  type ResponseHeadersPolicy,
  readResponseHeadersPolicy,
} from './response-headers';

type SiteFiles = ReturnType<typeof createSiteFiles>;
/** Serves one API request as the HTTP API would, with the origin's headers; answers its status. */
type ServeApi = Awaited<ReturnType<typeof createHttpApi>>;

/** What CloudFront's stand-in serves: the template's behaviours in front of the API and the site. */
export interface DistributionOptions {
  behaviours: readonly Behaviour[];
  serveApi: ServeApi;
  site: SiteFiles;
  /** The admin page's sign-in settings, deployed beside the site in AWS. */
  adminConfig: AdminConfig;
  /** See RehearsalOptions.viewerPerConnection. */
  viewerPerConnection: boolean | undefined;
  log: (line: string) => void;
}

/** The distribution's request handler: a behaviour picks the API or the site bucket, as CloudFront does. */
export function serveDistribution({
  behaviours,
  serveApi,
  site,
  adminConfig,
  viewerPerConnection,
  log,
}: DistributionOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    try {
      const behaviour = behaviours.find((candidate) => candidate.matches(pathname));
      applyResponseHeaders(res, behaviour?.responseHeaders);
      if (behaviour && !behaviour.methods.includes(req.method ?? 'GET')) {
        res.writeHead(403, { 'content-type': 'text/plain' });
        res.end('This distribution is not configured to allow the HTTP request method that was used.');
        return;
      }
      const port = req.socket.remotePort ?? 0;
      const address = viewerPerConnection
        ? `198.51.100.${port % 250}` // TEST-NET-2: addresses that are nobody's
        : (req.socket.remoteAddress ?? '127.0.0.1');
      if (behaviour?.origin.api) {
        const viewer = `${address}:${port}`;
        const status = await serveApi(req, res, {
          ...behaviour.origin.headers,
          'cloudfront-viewer-address': viewer,
        });
        log(`${req.method} ${pathname} ${status}`);
        return;
      }
      if (pathname === ADMIN_CONFIG_PATH) {
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
        res.end(JSON.stringify(adminConfig));
        return;
      }
      await serveBucket(
        site,
        req,
        res,
        behaviour?.origin.api === false ? behaviour.origin.functions : {},
        address,
      );
    } catch (error) {
      log(
        `error serving ${req.method} ${pathname}: ${error instanceof Error ? error.message : String(error)}`,
      );
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'Bad gateway' }));
    }
  };
}

/**
 * The site bucket behind the behaviour's CloudFront Function, run from the template's code:
 * the function picks the key (SPA routing) and the status the viewer gets.
 */
async function serveBucket(
  site: SiteFiles,
  req: IncomingMessage,
  res: ServerResponse,
  functions: SiteFunctions,
  viewerIp: string,
): Promise<void> {
  const received = viewerRequestEvent(req);
  let request = received;
  if (functions.request) {
    const result = await functions.request.viewerRequest(received, viewerIp);
    if (!('uri' in result)) {
      writeFunctionResponse(res, result);
      return;
    }
    request = result;
  }
  let key: string | undefined;
  try {
    key = decodeURIComponent(request.uri);
  } catch {
    key = undefined;
  }
  const found = key === undefined ? undefined : await site.find(key);
  // Origin access control grants s3:GetObject only: a missing key is S3's 403 AccessDenied, not 404.
  let response: CfResponse = found
    ? {
        statusCode: 200,
        statusDescription: 'OK',
        headers: {
          'cache-control': {
            value: request.uri.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
          },
        },
        cookies: {},
      }
    : { statusCode: 403, statusDescription: 'Forbidden', headers: {}, cookies: {} };
  // The viewer-response event carries the request as the viewer sent it, as CloudFront's does.
  if (functions.response) response = await functions.response.viewerResponse(received, response, viewerIp);
  const headers = Object.fromEntries(
    Object.entries(response.headers).map(([name, { value }]) => [name, value]),
  );
  if (found) {
    await site.send(req, res, response.statusCode, found, headers);
    return;
  }
  res.writeHead(response.statusCode, { ...headers, 'content-type': 'application/xml' });
  res.end(
    '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>',
  );
}

/** The folder of the site bucket's deployment asset: what the BucketDeployment copies to S3. */
export function siteAssetDir(assembly: Assembly): string {
  for (const [, deployment] of resourcesOfType(assembly, 'Custom::CDKBucketDeployment')) {
    const keys = z.array(z.string()).safeParse(deployment.Properties.SourceObjectKeys);
    for (const key of keys.success ? keys.data : []) {
      const dir = assembly.assetDir(key);
      if (dir !== undefined && existsSync(join(dir, 'index.html'))) return dir;
    }
  }
  throw new Error(`No site asset with an index.html in ${assembly.dir}`);
}

/** The CloudFront Functions a site behaviour associates, by event. */
interface SiteFunctions {
  request?: CloudFrontFunction;
  response?: CloudFrontFunction;
}

/** A response a CloudFront Function made itself (a redirect, say): sent as it is. */
function writeFunctionResponse(res: ServerResponse, response: CfResponse): void {
  const headers = Object.fromEntries(
    Object.entries(response.headers).map(([name, { value }]) => [name, value]),
  );
  res.writeHead(response.statusCode, headers);
  const body = response.body;
  if (body === undefined) res.end();
  else if (typeof body === 'string') res.end(body);
  else res.end(body.encoding === 'base64' ? Buffer.from(body.data, 'base64') : body.data);
}

export interface Behaviour {
  matches(pathname: string): boolean;
  methods: readonly string[];
  /** The API's behaviours carry the origin's custom headers; the site bucket's, its functions. */
  origin: { api: true; headers: Readonly<Record<string, string>> } | { api: false; functions: SiteFunctions };
  responseHeaders: ResponseHeadersPolicy | undefined;
}

/** CloudFront's `*` matches any characters, `/` included. */
function pathMatcher(pattern: string): (pathname: string) => boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return (pathname) => new RegExp(`^${source}$`).test(pathname);
}

const behaviourSchema = z.object({
  TargetOriginId: z.string(),
  AllowedMethods: z.array(z.string()).default(['GET', 'HEAD']),
  ResponseHeadersPolicyId: z.unknown().optional(),
  FunctionAssociations: z
    .array(z.object({ EventType: z.enum(['viewer-request', 'viewer-response']), FunctionARN: z.unknown() }))
    .default([]),
});

/**
 * The distribution's cache behaviours in the template's order, the default last: each with its
 * origin (the API's with its custom headers, secrets' dynamic references resolved) and its
 * response headers policy.
 */
export function readBehaviours(
  assembly: Assembly,
  secrets: ReadonlyMap<string, string>,
  localise: (name: string, value: string) => string,
): Behaviour[] {
  const [distribution] = resourcesOfType(assembly, 'AWS::CloudFront::Distribution');
  if (!distribution) return [];
  const config = z
    .object({
      CacheBehaviors: z.array(behaviourSchema.extend({ PathPattern: z.string() })).default([]),
      DefaultCacheBehavior: behaviourSchema,
      Origins: z.array(
        z.object({
          Id: z.string(),
          S3OriginConfig: z.unknown().optional(),
          OriginCustomHeaders: z
            .array(z.object({ HeaderName: z.string(), HeaderValue: z.unknown() }))
            .default([]),
        }),
      ),
    })
    .parse(distribution[1].Properties.DistributionConfig);
  const dynamicReference = /^\{\{resolve:secretsmanager:(.+?):SecretString:::\}\}$/;
  const loaded = new Map<string, CloudFrontFunction>();
  const siteFunctions = (props: z.infer<typeof behaviourSchema>): SiteFunctions => {
    const functions: SiteFunctions = {};
    for (const association of props.FunctionAssociations) {
      const key = JSON.stringify(association.FunctionARN);
      const fn = loaded.get(key) ?? loadCloudFrontFunction(assembly, association.FunctionARN);
      loaded.set(key, fn);
      functions[association.EventType === 'viewer-request' ? 'request' : 'response'] = fn;
    }
    return functions;
  };
  const behaviour = (
    matches: (pathname: string) => boolean,
    props: z.infer<typeof behaviourSchema>,
  ): Behaviour => {
    const origin = config.Origins.find((candidate) => candidate.Id === props.TargetOriginId);
    const responseHeaders = readResponseHeadersPolicy(assembly, props.ResponseHeadersPolicyId, localise);
    if (!origin || origin.S3OriginConfig !== undefined) {
      return {
        matches,
        methods: props.AllowedMethods,
        origin: { api: false, functions: siteFunctions(props) },
        responseHeaders,
      };
    }
    const headers: Record<string, string> = {};
    for (const header of origin.OriginCustomHeaders) {
      const value = assembly.resolveString(assembly.app.name, header.HeaderValue);
      const secretArn = dynamicReference.exec(value)?.[1];
      headers[header.HeaderName.toLowerCase()] =
        secretArn === undefined ? value : (secrets.get(secretArn) ?? '');
    }
    return { matches, methods: props.AllowedMethods, origin: { api: true, headers }, responseHeaders };
  };
  return [
    ...config.CacheBehaviors.map((props) => behaviour(pathMatcher(props.PathPattern), props)),
    behaviour(() => true, config.DefaultCacheBehavior),
  ];
}

/**
 * What the template's header values mean on this machine: the Cognito sign-in domain is the
 * identity stand-in, the distribution's domain is this server. A CSP that does not name the
 * sign-in domain names no stand-in either, so what it would block in AWS it blocks here.
 */
export function localiser(assembly: Assembly, siteUrl: string, identityProviderUrl: string) {
  const domains = resourcesOfType(assembly, 'AWS::Cognito::UserPoolDomain').map(([, resource]) =>
    assembly.resolveString(assembly.app.name, resource.Properties.Domain),
  );
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const signIn = domains.map(
    (domain) =>
      new RegExp(
        domain.includes('.')
          ? `https://${literal(domain)}`
          : `https://${literal(domain)}\\.auth\\.[a-z0-9-]+\\.amazoncognito\\.com`,
        'g',
      ),
  );
  const identityOrigin = new URL(identityProviderUrl).origin;
  return (name: string, value: string): string => {
    let local = value.replaceAll('https://{{rehearsal:site-domain}}', siteUrl);
    for (const pattern of signIn) local = local.replace(pattern, identityOrigin);
    if (name === 'content-security-policy') {
      // This server is plain http: the directive would send the shop's own files to https.
      local = local
        .split(/;\s*/)
        .filter((directive) => directive.trim() !== 'upgrade-insecure-requests')
        .join('; ');
    }
    return local;
  };
}
