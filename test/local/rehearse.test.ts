import { readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LOCAL_MERCHANT } from '../../local/identity-provider';
import { type Rehearsal, startRehearsal } from '../../local/rehearse/rehearsal';
import { testStage } from '../../local/rehearse/synth';
import { tempDir } from '../infra/support';
import { signInLocally } from '../support/local-sign-in';

const APP_TEMPLATE = 'LiveAquatics-dev.template.json';

// Loose: the edited template keeps its Outputs and each resource's other keys.
const templateSchema = z.looseObject({
  Resources: z.record(
    z.string(),
    z.looseObject({ Type: z.string(), Properties: z.record(z.string(), z.unknown()) }),
  ),
});
type Template = z.infer<typeof templateSchema>;

/** The dev stage, synthesised as `cdk deploy` synthesises it (bundles, site and all; the browser suite's seller), or as it was while its inputs are unchanged. */
async function synthesise(): Promise<string> {
  return (await testStage()).dir;
}

/** A copy of the assembly whose app template a reviewer has edited; the assets are the same files. */
function editedAssembly(base: string, edit: (template: Template) => void): string {
  const dir = tempDir('rehearse-edited-');
  for (const name of readdirSync(base)) {
    if (name !== APP_TEMPLATE) symlinkSync(join(base, name), join(dir, name));
  }
  const raw: unknown = JSON.parse(readFileSync(join(base, APP_TEMPLATE), 'utf8'));
  const template = templateSchema.parse(raw);
  edit(template);
  writeFileSync(join(dir, APP_TEMPLATE), JSON.stringify(template));
  return dir;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object at `key`, the template's own (not a parsed copy), so an edit changes the template. */
function objectAt(value: unknown, key: string): Record<string, unknown> {
  const inner: unknown = isRecord(value) ? value[key] : undefined;
  if (!isRecord(inner)) throw new Error(`No object at ${key}`);
  return inner;
}

function logicalIdStarting(template: Template, prefix: string, type: string): string {
  const id = Object.keys(template.Resources).find(
    (candidate) => candidate.startsWith(prefix) && template.Resources[candidate]?.Type === type,
  );
  if (!id) throw new Error(`No ${type} ${prefix}* in the template`);
  return id;
}

async function rehearse(assemblyDir: string, lines: string[]): Promise<Rehearsal> {
  return startRehearsal({
    assemblyDir,
    port: 0,
    dynamoPort: 0,
    sesPort: 0,
    simulatorPort: 0,
    identityProviderPort: 0,
    extensionPort: 0,
    log: (line) => lines.push(line),
  });
}

const ORDER = {
  name: 'Rita Rehearsal',
  email: 'rita@example.com',
  phone: '07700 900123',
  address: '1 Pond Lane\nBath',
  postcode: 'BA1 1AA',
  quantity: 3,
  // Three bottles at £3.25 and £4.95 delivery (the page's quote, cross-checked by the server).
  subtotal: 9.75,
  shipping: 4.95,
  total: 14.7,
};

async function startCheckout(shop: Rehearsal): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${shop.url}/functions/v1/create-checkout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': `rehearsal-${Date.now()}` },
    body: JSON.stringify(ORDER),
  });
  return { status: response.status, body: z.record(z.string(), z.unknown()).parse(await response.json()) };
}

describe('npm run rehearse: the shop served from a synthesised assembly', () => {
  const lines: string[] = [];
  const editedLines: string[] = [];
  let shop: Rehearsal;
  let edited: Rehearsal;
  const queryLimitedLines: string[] = [];
  let queryLimited: Rehearsal;

  beforeAll(async () => {
    const assembly = await synthesise();
    // One edited assembly carries the three edits a reviewer might make, each on a different part.
    const editedDir = editedAssembly(assembly, (template) => {
      const route = Object.entries(template.Resources).find(
        ([, resource]) => resource.Properties.RouteKey === 'GET /functions/v1/shop-status',
      );
      if (route) delete template.Resources[route[0]];
      const status =
        template.Resources[logicalIdStarting(template, 'CheckoutStatusFunction', 'AWS::Lambda::Function')];
      delete objectAt(objectAt(status?.Properties, 'Environment'), 'Variables').SHOP_ID;
      const policy =
        template.Resources[logicalIdStarting(template, 'StripeWebhookRoleDefaultPolicy', 'AWS::IAM::Policy')];
      const document = objectAt(policy?.Properties, 'PolicyDocument');
      const statements = z.array(z.unknown()).parse(document.Statement);
      document.Statement = statements.filter((statement) => !JSON.stringify(statement).includes('ORDER#'));
      // The response headers policy loses X-Frame-Options and changes its Referrer-Policy.
      const headers =
        template.Resources[
          logicalIdStarting(template, 'WebsiteSecurityHeaders', 'AWS::CloudFront::ResponseHeadersPolicy')
        ];
      const security = objectAt(
        objectAt(headers?.Properties, 'ResponseHeadersPolicyConfig'),
        'SecurityHeadersConfig',
      );
      delete security.FrameOptions;
      objectAt(security, 'ReferrerPolicy').ReferrerPolicy = 'no-referrer';
      // The app client loses its email scope; the merchants' group is renamed.
      const client =
        template.Resources[logicalIdStarting(template, 'MerchantAdmin', 'AWS::Cognito::UserPoolClient')];
      if (client) client.Properties.AllowedOAuthScopes = ['openid'];
      const group =
        template.Resources[logicalIdStarting(template, 'MerchantAdmin', 'AWS::Cognito::UserPoolGroup')];
      if (group) group.Properties.GroupName = 'admins';
      // The site's CloudFront Function no longer knows the privacy page.
      const routing = Object.values(template.Resources).find(
        (resource) => resource.Type === 'AWS::CloudFront::Function',
      );
      if (!routing || typeof routing.Properties.FunctionCode !== 'string')
        throw new Error('No function code');
      routing.Properties.FunctionCode = routing.Properties.FunctionCode.replace('"/privacy":true,', '');
    });
    // Apart: the other's renamed group and narrowed scopes would keep the merchant out of the admin API.
    const queryLimitedDir = editedAssembly(assembly, (template) => {
      // The admin's Query is limited to the dispatch days' keys (DISPATCH#…): a reference's is another.
      const admin =
        template.Resources[logicalIdStarting(template, 'AdminApiRoleDefaultPolicy', 'AWS::IAM::Policy')];
      // The template's own statements (a parsed copy would not carry the edit).
      const adminStatements: unknown = objectAt(admin?.Properties, 'PolicyDocument').Statement;
      const query = (Array.isArray(adminStatements) ? adminStatements : [])
        .filter(isRecord)
        .find((statement) => statement.Action === 'dynamodb:Query');
      if (!query) throw new Error('The admin role has no Query statement');
      query.Condition = { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['DISPATCH#*'] } };
    });
    [shop, edited, queryLimited] = await Promise.all([
      rehearse(assembly, lines),
      rehearse(editedDir, editedLines),
      rehearse(queryLimitedDir, queryLimitedLines),
    ]);
  }, 600_000);

  afterAll(async () => {
    await Promise.all([shop?.close(), edited?.close(), queryLimited?.close()]);
  });

  it('starts a checkout through CloudFront, the origin-verify authorizer and the bundled function', async () => {
    const { status, body } = await startCheckout(shop);
    expect(status).toBe(200);
    expect(String(body.url)).toMatch(
      new RegExp(`^${shop.simulator.url.replace(/127\.0\.0\.1|localhost/, '(127\\.0\\.0\\.1|localhost)')}`),
    );
    expect(lines.filter((line) => line.includes('AccessDenied'))).toEqual([]);
  }, 60_000);

  it('refuses the webhook the DynamoDB write its role no longer allows, so Stripe retries', async () => {
    const { body } = await startCheckout(edited);
    const sessionId = String(body.sessionId);
    await edited.simulator.completeSession(sessionId);
    const denied = editedLines.find((line) => line.startsWith('AccessDenied'));
    expect(denied).toMatch(
      /^AccessDenied: role StripeWebhookRole\w+ may not dynamodb:GetItem on arn:aws:dynamodb:[\w-]+:123456789012:table\/OrdersTable\w+ \(dynamodb:LeadingKeys ORDER#cs_test_\w+\)$/,
    );
    expect(editedLines).toContainEqual(expect.stringMatching(/^POST \/functions\/v1\/stripe-webhook 5\d\d$/));
  }, 60_000);

  it('fails the function whose environment lost a setting, naming it', async () => {
    // A well-formed session id, so the handler gets as far as its configuration.
    const { body } = await startCheckout(edited);
    const response = await fetch(
      `${edited.url}/functions/v1/checkout-status?session_id=${String(body.sessionId)}`,
    );
    expect(response.status).toBeGreaterThanOrEqual(500);
    expect(
      editedLines.some((line) => line.includes('CheckoutStatusFunction') && line.includes('SHOP_ID')),
    ).toBe(true);
  }, 60_000);

  it('answers 404 for a route the template no longer has, as API Gateway does', async () => {
    const response = await fetch(`${edited.url}/functions/v1/shop-status`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'Not Found' });
    const before = await fetch(`${shop.url}/functions/v1/shop-status`);
    expect(before.status).toBe(200);
  }, 60_000);

  it('sends the response headers policy the template declares, on the site and the API', async () => {
    for (const path of ['/', '/functions/v1/shop-status']) {
      const response = await fetch(`${shop.url}${path}`);
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('referrer-policy')).toBe('same-origin');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains');
      expect(response.headers.get('permissions-policy')).toBe(
        'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
      );
      // The template's Cognito domain is the identity stand-in here; plain http drops the upgrade.
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain(`connect-src 'self' ${shop.identityProvider.url};`);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('upgrade-insecure-requests');
    }
    const editedPage = await fetch(`${edited.url}/`);
    expect(editedPage.headers.get('x-frame-options')).toBeNull();
    expect(editedPage.headers.get('referrer-policy')).toBe('no-referrer');
  }, 60_000);

  it('signs in with the app client and group the template declares', async () => {
    const authorize = (rehearsal: Rehearsal) => {
      const query = new URLSearchParams({
        client_id: rehearsal.identityProvider.clientId,
        redirect_uri: `${rehearsal.url}/admin`,
        response_type: 'code',
        scope: 'openid email',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGrSjZw-cM',
        code_challenge_method: 'S256',
      });
      return fetch(`${rehearsal.identityProvider.url}/oauth2/authorize?${query}`, { redirect: 'manual' });
    };
    expect(shop.identityProvider.clientId).toMatch(/^MerchantAdminMerchantsAdminPage/);
    expect((await authorize(shop)).status).toBe(200);
    expect(shop.identityProvider.users.map((user) => user.groups)).toEqual([['merchants']]);

    const refused = await authorize(edited);
    expect(refused.status).toBe(302);
    expect(new URL(refused.headers.get('location') ?? '').searchParams.get('error')).toBe('invalid_scope');
    expect(edited.identityProvider.users.map((user) => user.groups)).toEqual([['admins']]);
  }, 60_000);

  it('serves the site bucket’s asset', async () => {
    const page = await fetch(`${shop.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Daphnia Magna');
  }, 120_000);

  it('routes the site through the template’s CloudFront Function, so a route it loses is a 404', async () => {
    const status = async (rehearsal: Rehearsal, path: string) =>
      (await fetch(`${rehearsal.url}${path}`)).status;
    expect(await status(shop, '/privacy')).toBe(200);
    expect(await status(shop, '/order/some-token')).toBe(200);
    expect(await status(shop, '/no-such-page')).toBe(404);
    expect(await status(shop, '/favicon.svg')).toBe(200);
    const page = await fetch(`${edited.url}/privacy`);
    expect(page.status).toBe(404);
    // The function's not-found answer is the prerendered 404 page, not the bucket's refusal.
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await status(edited, '/terms')).toBe(200);
  }, 60_000);

  it('starts a JSON secret it has no value for (the Open-Meteo key) with its key empty, as setup leaves it', () => {
    // An empty key is the free endpoint: the weather check works before an operator sets one.
    expect(JSON.parse(shop.secretValue('ForecastKeyOpenMeteoKey') ?? 'undefined')).toEqual({
      openMeteoApiKey: '',
    });
    // A generated secret is a random string, as CloudFormation makes one: what a test seals links with.
    expect(shop.secretValue('OrderPageSecret')).toMatch(/^[0-9a-f]{48}$/);
    expect(shop.secretValue('NoSuchSecret')).toBeUndefined();
  });

  it('reads the Open-Meteo key through the extension on the port the environment names, as Lambda does', async () => {
    // The extension stand-in is on a free port here, not 2773: only a reader that takes the port
    // from PARAMETERS_SECRETS_EXTENSION_HTTP_PORT finds it (issue 48: the key reader ignored it).
    const { id_token } = await signInLocally({
      signInUrl: shop.identityProvider.url,
      clientId: shop.identityProvider.clientId,
      redirectUri: `${shop.url}/admin`,
      email: LOCAL_MERCHANT.email,
      password: LOCAL_MERCHANT.password,
    });

    const response = await fetch(`${shop.url}/functions/v1/admin/weather`, {
      headers: { authorization: `Bearer ${id_token}` },
    });

    expect(response.status).toBe(200);
    expect(
      z.looseObject({ forecastKeyProblem: z.string().optional() }).parse(await response.json()),
    ).not.toHaveProperty('forecastKeyProblem');
    expect(lines.filter((line) => line.includes('Open-Meteo key'))).toEqual([]);
  }, 120_000);

  it('refuses a Query whose partition key the role’s dynamodb:LeadingKeys condition does not allow', async () => {
    const lookUp = async (rehearsal: Rehearsal) => {
      const { id_token } = await signInLocally({
        signInUrl: rehearsal.identityProvider.url,
        clientId: rehearsal.identityProvider.clientId,
        redirectUri: `${rehearsal.url}/admin`,
        email: LOCAL_MERCHANT.email,
        password: LOCAL_MERCHANT.password,
      });
      const get = (path: string) =>
        fetch(`${rehearsal.url}${path}`, { headers: { authorization: `Bearer ${id_token}` } });
      // The reference index's key is the reference in lower case; the week queries DISPATCH#<day>.
      return {
        byReference: await get('/functions/v1/admin/order?reference=QRSTUV12'),
        week: await get('/functions/v1/admin/status'),
      };
    };
    const allowed = await lookUp(shop);
    expect(allowed.byReference.status).toBe(404);
    expect(lines.filter((line) => line.includes('AccessDenied'))).toEqual([]);

    const limited = await lookUp(queryLimited);
    expect(limited.byReference.status).toBeGreaterThanOrEqual(500);
    expect(queryLimitedLines).toContainEqual(
      expect.stringMatching(
        /^AccessDenied: role AdminApiRole\w+ may not dynamodb:Query on arn:aws:dynamodb:[\w-]+:123456789012:table\/OrdersTable\w+\/index\/byReferenceKey \(dynamodb:LeadingKeys qrstuv12\)$/,
      ),
    );
    // The dispatch days' Queries still pass: the condition is evaluated, not every Query refused.
    expect(limited.week.status).toBe(200);
    expect(queryLimitedLines.filter((line) => line.includes('DISPATCH#'))).toEqual([]);
  }, 120_000);
});
