import type { IncomingMessage } from 'node:http';
import { runInNewContext } from 'node:vm';
import { z } from 'zod';
import { type Assembly, referencedId } from './assembly';

/**
 * A CloudFront Function of the template (runtime cloudfront-js), run as CloudFront runs it: its
 * FunctionCode evaluated in a bare V8 context of its own (no Node globals, as in CloudFront's
 * runtime), its `handler` called with CloudFront's event shape
 * (docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/functions-event-structure.html).
 */

const valueSchema = z.object({
  value: z.string(),
  multiValue: z.array(z.object({ value: z.string() })).optional(),
});
const valuesSchema = z.record(z.string(), valueSchema);
export type CfValues = z.infer<typeof valuesSchema>;

const requestSchema = z.object({
  method: z.string(),
  uri: z.string(),
  querystring: valuesSchema.default({}),
  headers: valuesSchema.default({}),
  cookies: valuesSchema.default({}),
});
export type CfRequest = z.infer<typeof requestSchema>;

const responseSchema = z.object({
  statusCode: z.number().int(),
  statusDescription: z.string().optional(),
  headers: valuesSchema.default({}),
  cookies: z.record(z.string(), z.unknown()).default({}),
  body: z
    .union([z.string(), z.object({ data: z.string(), encoding: z.enum(['text', 'base64']).default('text') })])
    .optional(),
});
export type CfResponse = z.infer<typeof responseSchema>;

export type EventType = 'viewer-request' | 'viewer-response';

export interface CloudFrontFunction {
  id: string;
  /** The request to send on, or the response the function answers with itself. */
  viewerRequest(request: CfRequest, viewerIp: string): Promise<CfRequest | CfResponse>;
  viewerResponse(request: CfRequest, response: CfResponse, viewerIp: string): Promise<CfResponse>;
}

/** The function a behaviour's FunctionAssociations entry names, loaded from the template's FunctionCode. */
export function loadCloudFrontFunction(assembly: Assembly, functionArn: unknown): CloudFrontFunction {
  const id = referencedId(functionArn);
  const resource = id === undefined ? undefined : assembly.app.template.Resources[id];
  if (id === undefined || resource?.Type !== 'AWS::CloudFront::Function') {
    throw new Error(
      `A function association names ${JSON.stringify(functionArn)}, not a function of the template`,
    );
  }
  const props = z
    .object({
      FunctionCode: z.string(),
      FunctionConfig: z.object({ Runtime: z.enum(['cloudfront-js-1.0', 'cloudfront-js-2.0']) }),
    })
    .parse(assembly.resolve(assembly.app.name, resource.Properties));
  // A fresh context per function, as each CloudFront Function is its own program.
  const handler: unknown = runInNewContext(`${props.FunctionCode}\n;handler`, {}, { filename: id });
  if (typeof handler !== 'function') throw new Error(`${id}: its FunctionCode defines no handler`);
  const run = async (event: Record<string, unknown>): Promise<unknown> => {
    // A copy through JSON: the function may change what it is given, as CloudFront's may.
    const result: unknown = await Reflect.apply(handler, undefined, [JSON.parse(JSON.stringify(event))]);
    return result;
  };
  const context = (eventType: EventType) => ({
    distributionDomainName: '{{rehearsal:site-domain}}',
    distributionId: 'REHEARSAL',
    eventType,
    requestId: Math.random().toString(36).slice(2),
  });
  return {
    id,
    async viewerRequest(request, viewerIp) {
      const result = await run({
        version: '1.0',
        context: context('viewer-request'),
        viewer: { ip: viewerIp },
        request,
      });
      // Returning an object with a statusCode is the function answering the viewer itself.
      const response = responseSchema.safeParse(result);
      if (response.success) return response.data;
      return requestSchema.parse(result);
    },
    async viewerResponse(request, response, viewerIp) {
      return responseSchema.parse(
        await run({
          version: '1.0',
          context: context('viewer-response'),
          viewer: { ip: viewerIp },
          request,
          response,
        }),
      );
    },
  };
}

/** The viewer's request as CloudFront hands it to a function: lower-case names, `{ value }` objects. */
export function viewerRequestEvent(req: IncomingMessage): CfRequest {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const headers: CfValues = {};
  const cookies: CfValues = {};
  for (let index = 0; index + 1 < req.rawHeaders.length; index += 2) {
    const name = String(req.rawHeaders[index]).toLowerCase();
    const value = String(req.rawHeaders[index + 1]);
    // CloudFront hands cookies to a function apart from the other headers.
    if (name === 'cookie') {
      for (const pair of value.split(/;\s*/)) {
        const at = pair.indexOf('=');
        if (at > 0) add(cookies, pair.slice(0, at), pair.slice(at + 1));
      }
    } else add(headers, name, value);
  }
  const querystring: CfValues = {};
  for (const [name, value] of url.searchParams) add(querystring, name, value);
  return { method: req.method ?? 'GET', uri: url.pathname, querystring, headers, cookies };
}

function add(values: CfValues, name: string, value: string): void {
  const existing = values[name];
  if (!existing) {
    values[name] = { value };
    return;
  }
  existing.multiValue = [...(existing.multiValue ?? [{ value: existing.value }]), { value }];
}
