import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { z } from 'zod';
import { type Assembly, referencedId } from './assembly';

/**
 * A CloudFront response headers policy as the template declares it, applied as CloudFront applies
 * it: each header set over the origin's when the policy says Override, added only when the origin
 * sent none otherwise, and the policy's removals removed.
 */
export interface ResponseHeadersPolicy {
  id: string;
  headers: ReadonlyArray<{ name: string; value: string; override: boolean }>;
  remove: readonly string[];
}

const overrideSchema = z.object({ Override: z.boolean() });

const configSchema = z.object({
  SecurityHeadersConfig: z
    .object({
      ContentSecurityPolicy: overrideSchema.extend({ ContentSecurityPolicy: z.string() }).optional(),
      ContentTypeOptions: overrideSchema.optional(),
      FrameOptions: overrideSchema.extend({ FrameOption: z.enum(['DENY', 'SAMEORIGIN']) }).optional(),
      ReferrerPolicy: overrideSchema.extend({ ReferrerPolicy: z.string() }).optional(),
      StrictTransportSecurity: overrideSchema
        .extend({
          AccessControlMaxAgeSec: z.number().int(),
          IncludeSubdomains: z.boolean().optional(),
          Preload: z.boolean().optional(),
        })
        .optional(),
      XSSProtection: overrideSchema
        .extend({
          Protection: z.boolean(),
          ModeBlock: z.boolean().optional(),
          ReportUri: z.string().optional(),
        })
        .optional(),
    })
    .optional(),
  CustomHeadersConfig: z
    .object({ Items: z.array(overrideSchema.extend({ Header: z.string(), Value: z.string() })) })
    .optional(),
  RemoveHeadersConfig: z.object({ Items: z.array(z.object({ Header: z.string() })) }).optional(),
});

/** The header CloudFront sends for each of SecurityHeadersConfig's settings. */
function securityHeaders(config: z.infer<typeof configSchema>['SecurityHeadersConfig']) {
  const headers: Array<{ name: string; value: string; override: boolean }> = [];
  if (!config) return headers;
  const csp = config.ContentSecurityPolicy;
  if (csp)
    headers.push({
      name: 'content-security-policy',
      value: csp.ContentSecurityPolicy,
      override: csp.Override,
    });
  if (config.ContentTypeOptions)
    headers.push({
      name: 'x-content-type-options',
      value: 'nosniff',
      override: config.ContentTypeOptions.Override,
    });
  if (config.FrameOptions)
    headers.push({
      name: 'x-frame-options',
      value: config.FrameOptions.FrameOption,
      override: config.FrameOptions.Override,
    });
  if (config.ReferrerPolicy)
    headers.push({
      name: 'referrer-policy',
      value: config.ReferrerPolicy.ReferrerPolicy,
      override: config.ReferrerPolicy.Override,
    });
  const hsts = config.StrictTransportSecurity;
  if (hsts) {
    const value = [
      `max-age=${hsts.AccessControlMaxAgeSec}`,
      ...(hsts.IncludeSubdomains ? ['includeSubDomains'] : []),
      ...(hsts.Preload ? ['preload'] : []),
    ].join('; ');
    headers.push({ name: 'strict-transport-security', value, override: hsts.Override });
  }
  const xss = config.XSSProtection;
  if (xss) {
    const value = !xss.Protection
      ? '0'
      : [
          '1',
          ...(xss.ModeBlock ? ['mode=block'] : []),
          ...(xss.ReportUri ? [`report=${xss.ReportUri}`] : []),
        ].join('; ');
    headers.push({ name: 'x-xss-protection', value, override: xss.Override });
  }
  return headers;
}

/**
 * The policy a behaviour's ResponseHeadersPolicyId names, when it is one of the template's
 * (a managed policy's id is CloudFront's own, not in the template: undefined, and said so).
 * `localise` turns a resolved header value into what it means on this machine.
 */
export function readResponseHeadersPolicy(
  assembly: Assembly,
  policyId: unknown,
  localise: (name: string, value: string) => string,
): ResponseHeadersPolicy | undefined {
  const id = referencedId(policyId);
  const resource = id === undefined ? undefined : assembly.app.template.Resources[id];
  if (id === undefined || resource?.Type !== 'AWS::CloudFront::ResponseHeadersPolicy') return undefined;
  const config = configSchema.parse(
    assembly.resolve(
      assembly.app.name,
      z.object({ ResponseHeadersPolicyConfig: z.unknown() }).parse(resource.Properties)
        .ResponseHeadersPolicyConfig,
    ),
  );
  const custom = (config.CustomHeadersConfig?.Items ?? []).map((item) => ({
    name: item.Header.toLowerCase(),
    value: item.Value,
    override: item.Override,
  }));
  return {
    id,
    headers: [...securityHeaders(config.SecurityHeadersConfig), ...custom].map((header) => ({
      ...header,
      value: localise(header.name, header.value),
    })),
    remove: (config.RemoveHeadersConfig?.Items ?? []).map((item) => item.Header.toLowerCase()),
  };
}

/** Makes `res` carry the policy's headers however the origin writes its own (writeHead or an implicit head). */
export function applyResponseHeaders(res: ServerResponse, policy: ResponseHeadersPolicy | undefined): void {
  if (!policy) return;
  const writeHead = res.writeHead.bind(res);
  const patched = (statusCode: number, ...rest: unknown[]): ServerResponse => {
    const reason = typeof rest[0] === 'string' ? rest[0] : undefined;
    const given = typeof rest[0] === 'string' ? rest[1] : rest[0];
    if (Array.isArray(given)) {
      // Raw [name, value, name, value, ...] pairs.
      for (let index = 0; index + 1 < given.length; index += 2)
        res.setHeader(String(given[index]), given[index + 1]);
    } else if (given && typeof given === 'object') {
      for (const [name, value] of Object.entries(given as OutgoingHttpHeaders)) {
        if (value !== undefined) res.setHeader(name, value);
      }
    }
    for (const header of policy.headers) {
      if (header.override || !res.hasHeader(header.name)) res.setHeader(header.name, header.value);
    }
    for (const name of policy.remove) res.removeHeader(name);
    return reason === undefined ? writeHead(statusCode) : writeHead(statusCode, reason);
  };
  res.writeHead = patched as ServerResponse['writeHead'];
}
