import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Every attack case the shop must withstand has a test named after it. This file is the index:
// it lists each case with the titles of the tests that check it, exactly as they are written,
// and fails, naming the case, when one of them is renamed, deleted or skipped. The table in
// docs/reliability-cases.md is the same list for readers, and is checked against it too.

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TABLE = 'docs/reliability-cases.md';

type Section =
  | 'Webhook authenticity'
  | 'Exactly once'
  | 'Checkout endpoint'
  | 'Success page'
  | 'Email'
  | 'Infrastructure';

interface NamedTest {
  /** Relative to the repository root. */
  file: string;
  /** The title as written in the source: an `it`, `test` or `describe` title, `%s` and all. */
  title: string;
}

interface ReliabilityCase {
  section: Section;
  /** The case in a few words; the row of the table in docs/reliability-cases.md starts with it. */
  name: string;
  tests: NamedTest[];
}

const WEBHOOK = 'test/lambdas/handlers/stripe-webhook';
const CHECKOUT = 'test/lambdas/handlers/create-checkout';
const STATUS = 'test/lambdas/handlers/checkout-status';

const RELIABILITY_CASES: ReliabilityCase[] = [
  // Webhook authenticity
  {
    section: 'Webhook authenticity',
    name: 'Same signed event, pretty-printed with Zoë and £, as plain and base64 body: verifies, fulfils once',
    tests: [
      {
        file: `${WEBHOOK}/authenticity.test.ts`,
        title:
          'same signed event pretty-printed with Zoë and £, plain and base64 body: verifies and fulfils once',
      },
    ],
  },
  {
    section: 'Webhook authenticity',
    name: 'Body re-serialised before verifying: refused',
    tests: [
      {
        file: `${WEBHOOK}/authenticity.test.ts`,
        title:
          'body re-serialised before verifying (parsed and stringified again): 400, only the raw bytes verify',
      },
    ],
  },
  {
    section: 'Webhook authenticity',
    name: 'Header named stripe-signature or Stripe-Signature: both verify',
    tests: [{ file: `${WEBHOOK}/authenticity.test.ts`, title: 'header named %s: verifies' }],
  },
  {
    section: 'Webhook authenticity',
    name: 'Missing, garbage or v0-only header, wrong secret, one byte changed, empty body: 400, no side effect',
    tests: [
      {
        file: `${WEBHOOK}/authenticity.test.ts`,
        title: '%s: 400, no DynamoDB write, no SES call, no Stripe call',
      },
    ],
  },
  {
    section: 'Webhook authenticity',
    name: 'Timestamp 301 s old or far in the future: refused',
    tests: [{ file: `${WEBHOOK}/authenticity.test.ts`, title: 'timestamp %s: 400, no side effect' }],
  },
  {
    section: 'Webhook authenticity',
    name: 'Timestamp 299 s old (or 299 s ahead): accepted',
    tests: [{ file: `${WEBHOOK}/authenticity.test.ts`, title: 'timestamp %s: accepted' }],
  },
  {
    section: 'Webhook authenticity',
    name: 'livemode different from the deployment: refused',
    tests: [
      {
        file: `${WEBHOOK}/authenticity.test.ts`,
        title: 'livemode true on a test deployment: rejected, no side effect',
      },
      {
        file: `${WEBHOOK}/authenticity.test.ts`,
        title: 'livemode false on a live deployment: rejected, no side effect',
      },
    ],
  },
  {
    section: 'Webhook authenticity',
    name: 'Unknown event type: 2xx, no work',
    tests: [
      {
        file: `${WEBHOOK}/authenticity.test.ts`,
        title: 'unknown event type (customer.created): 2xx, no work',
      },
    ],
  },
  {
    section: 'Webhook authenticity',
    name: 'A session that is not ours: 2xx, no work',
    tests: [
      {
        file: `${WEBHOOK}/authenticity.test.ts`,
        title: 'paid session that is not ours (no marker in metadata): 2xx, no work',
      },
      {
        file: `${WEBHOOK}/deployments.test.ts`,
        title: 'the webhook leaves another deployment’s paid session alone: 200, no order, no email',
      },
    ],
  },

  // Exactly once
  {
    section: 'Exactly once',
    name: 'The same event 5 times concurrently: one order, one email of each kind, all 2xx',
    tests: [
      {
        file: `${WEBHOOK}/exactly-once.test.ts`,
        title: 'the same signed event 5 times concurrently: one order, one email of each kind, all 2xx',
      },
    ],
  },
  {
    section: 'Exactly once',
    name: 'The same event re-signed 10 minutes and 4 days later: one order',
    tests: [
      {
        file: `${WEBHOOK}/exactly-once.test.ts`,
        title: 'the same event re-signed %s later: still one order',
      },
    ],
  },
  {
    section: 'Exactly once',
    name: 'completed and async_payment_succeeded, in both orders: one order',
    tests: [{ file: `${WEBHOOK}/exactly-once.test.ts`, title: '%s for one session: one order' }],
  },
  {
    section: 'Exactly once',
    name: 'completed and async_payment_succeeded concurrently: one order',
    tests: [
      {
        file: `${WEBHOOK}/exactly-once.test.ts`,
        title: 'completed and async_payment_succeeded for one session concurrently: one order',
      },
    ],
  },
  {
    section: 'Exactly once',
    name: 'Failure after the order is written, or after an email is marked sent, then replay: once each',
    tests: [
      {
        file: `${WEBHOOK}/failures.test.ts`,
        title: 'failure injected after %s, then the event replayed: one order, each email sent once',
      },
    ],
  },
  {
    section: 'Exactly once',
    name: 'Failure after an email is claimed, then replay: once each',
    tests: [
      {
        file: `${WEBHOOK}/failures.test.ts`,
        title:
          'failure injected after the email is claimed, then the event replayed: one order, each email sent once (the claim is honoured until stale)',
      },
    ],
  },
  {
    section: 'Exactly once',
    name: 'Failure after an email is sent, before it is marked sent: the one accepted duplicate',
    tests: [
      {
        file: `${WEBHOOK}/failures.test.ts`,
        title:
          'failure injected after the email is sent, before it is marked sent, then replayed: sent twice, the one accepted duplicate window',
      },
    ],
  },
  {
    section: 'Exactly once',
    name: 'DynamoDB or SES failing: 5xx, and the retry completes the work',
    tests: [
      {
        file: `${WEBHOOK}/failures.test.ts`,
        title: 'DynamoDB or SES failing (%s): 5xx so Stripe retries, and the retry completes the work once',
      },
    ],
  },
  {
    section: 'Exactly once',
    name: 'A paid session whose webhook never arrived: fulfilled by the reconciler',
    tests: [
      {
        file: 'test/lambdas/domain/reconcile/reconcile-orders.test.ts',
        title:
          'a paid session whose webhook never arrived: found and fulfilled by the reconciler, and said so in a metric',
      },
    ],
  },
  {
    section: 'Exactly once',
    name: 'The reconciler and a late webhook together: one order',
    tests: [
      {
        file: 'test/lambdas/domain/reconcile/reconcile-orders.test.ts',
        title: 'the reconciler and a late webhook together, at once or one after the other: still one order',
      },
    ],
  },
  {
    section: 'Exactly once',
    name: 'Amount, currency or quantity not matching the price table: no fulfilment, error logged',
    tests: [
      {
        file: 'test/lambdas/domain/fulfilment/fulfil-checkout.test.ts',
        title:
          'paid session with %s, not matching our price table: no automatic fulfilment, an error logged for the merchant',
      },
    ],
  },

  // Checkout endpoint
  {
    section: 'Checkout endpoint',
    name: 'Browser totals off by 0.01 or huge but well-formed: rejected with the server quote',
    tests: [
      {
        file: `${CHECKOUT}/quote-mismatch.test.ts`,
        title: 'browser totals that do not match the server quote (%s): 409 with the quote, no session',
      },
    ],
  },
  {
    section: 'Checkout endpoint',
    name: 'Browser totals negative, huge, strings: rejected with a clear error',
    tests: [
      {
        file: `${CHECKOUT}/quote-mismatch.test.ts`,
        title: 'browser total that is %s: 400 with a clear error, no session',
      },
    ],
  },
  {
    section: 'Checkout endpoint',
    name: 'Browser totals absent: rejected with a clear error',
    tests: [
      {
        file: `${CHECKOUT}/quote-mismatch.test.ts`,
        title: 'browser totals absent (no %s): 400 with a clear error',
      },
    ],
  },
  {
    section: 'Checkout endpoint',
    name: 'The session is always created from the server’s price',
    tests: [
      {
        file: `${CHECKOUT}/session-params.test.ts`,
        title: 'session created from the server price only: $quantity bottles at $pence pence',
      },
    ],
  },
  {
    section: 'Checkout endpoint',
    name: 'Quantity `0, -3, 3.5, 12, "03", null, [3], {}`: rejected',
    tests: [
      { file: `${CHECKOUT}/request-validation.test.ts`, title: 'quantity %j: rejected (only 3, 6 or 9)' },
    ],
  },
  {
    section: 'Checkout endpoint',
    name: 'Unknown fields: rejected, not passed on',
    tests: [
      { file: `${CHECKOUT}/request-validation.test.ts`, title: 'unknown field %s: rejected, not passed on' },
    ],
  },
  {
    section: 'Checkout endpoint',
    name: 'Every field has a length limit that fits Stripe metadata',
    tests: [
      { file: `${CHECKOUT}/request-validation.test.ts`, title: 'field %s over its length limit: rejected' },
      {
        file: `${CHECKOUT}/session-params.test.ts`,
        title:
          'every field at its length limit fits Stripe metadata (50 keys, keys of 40, values of 500 characters)',
      },
    ],
  },
  {
    section: 'Checkout endpoint',
    name: 'CR, LF, NUL, U+2028/9, bidi overrides: rejected',
    tests: [
      { file: `${CHECKOUT}/request-validation.test.ts`, title: 'control character %s in the name: rejected' },
      {
        file: `${CHECKOUT}/request-validation.test.ts`,
        title: 'control character %j in the address: rejected (only LF is allowed there)',
      },
    ],
  },
  {
    section: 'Checkout endpoint',
    name: 'Email a real address shape: local part at most 64, whole at most 254',
    tests: [
      {
        file: `${CHECKOUT}/request-validation.test.ts`,
        title: 'email local part at most 64, whole at most 254: 65 and 255 rejected, 64 and 254 accepted',
      },
      {
        file: `${CHECKOUT}/request-validation.test.ts`,
        title: 'email %j: rejected, not a real address shape',
      },
    ],
  },
  {
    section: 'Checkout endpoint',
    name: 'Postcode anchored at both ends: `<b>x</b> SW1A 1AA` fails',
    tests: [
      {
        file: `${CHECKOUT}/request-validation.test.ts`,
        title: 'postcode %j: rejected, the check is anchored at both ends',
      },
    ],
  },
  {
    section: 'Checkout endpoint',
    name: 'Header injection (`\\r\\nBcc:` in a name or email): rejected before any email exists',
    tests: [
      {
        file: `${CHECKOUT}/request-validation.test.ts`,
        title: 'header injection: a %s carrying "\\r\\nBcc:" is rejected before any email exists',
      },
      {
        file: `${CHECKOUT}/aws-dependencies.test.ts`,
        title:
          'header injection in requests mode, where checkout itself emails: "\\r\\nBcc:" in a name or email is rejected before any email exists',
      },
    ],
  },
  {
    section: 'Checkout endpoint',
    name: 'Body over 8 KB: 413',
    tests: [
      {
        file: `${CHECKOUT}/request-envelope.test.ts`,
        title: 'body over 8 KB: 8193 bytes refused with 413, 8192 bytes read',
      },
    ],
  },
  {
    section: 'Checkout endpoint',
    name: 'Invalid JSON: 400 with a clear message, never a 500',
    tests: [
      {
        file: `${CHECKOUT}/request-envelope.test.ts`,
        title: 'invalid JSON %s: 400 with a clear message, never a 500',
      },
    ],
  },
  {
    section: 'Checkout endpoint',
    name: 'Content type other than JSON, text/plain and form posts: refused',
    tests: [
      {
        file: `${CHECKOUT}/request-envelope.test.ts`,
        title: 'content type %s, not JSON: 415, no CSRF simple request',
      },
    ],
  },
  {
    section: 'Checkout endpoint',
    name: 'success_url and cancel_url from configuration only',
    tests: [
      {
        file: `${CHECKOUT}/session-params.test.ts`,
        title:
          'success_url and cancel_url come from configuration only: the request’s Host, Origin, Referer and forwarded headers are ignored',
      },
      { file: `${CHECKOUT}/request-validation.test.ts`, title: 'unknown field %s: rejected, not passed on' },
      {
        file: 'test/infra/shop-stack.test.ts',
        title: 'builds success and cancel URLs from the site URL in config, never from the request',
      },
    ],
  },
  {
    section: 'Checkout endpoint',
    name: 'Creating a session writes only its hold and sends nothing',
    tests: [
      {
        file: `${CHECKOUT}/aws-dependencies.test.ts`,
        title:
          "creating a session writes only its hold (on its day, and in the client's open holds) and its record, and sends nothing: no order, no SES message, no webhook event",
      },
      {
        file: `${CHECKOUT}/session-params.test.ts`,
        title: 'creating a session sends no webhook event, so no email and no order follow',
      },
    ],
  },
  {
    section: 'Checkout endpoint',
    name: 'Stripe or AWS errors: "Checkout Failed" toast, generic body, detail in the log',
    tests: [
      {
        file: `${CHECKOUT}/stripe-failures.test.ts`,
        title: 'Stripe error %i: a generic 502 body, the detail in the log, no secret or PII',
      },
      {
        file: `${CHECKOUT}/aws-dependencies.test.ts`,
        title:
          'AWS error (DynamoDB unreachable): a generic 503 body, the detail in the log, no session, no PII logged',
      },
      {
        file: 'test/web/features/order/order-page.test.tsx',
        title:
          'an API error %i shows the "Checkout Failed" toast, says so in the payment tab with a way back, and re-enables the button',
      },
    ],
  },
  {
    section: 'Checkout endpoint',
    name: 'No secret or full PII ever logged',
    tests: [
      {
        file: `${CHECKOUT}/session-params.test.ts`,
        title: 'no secret or full PII in the logs: a created session logs its id and status only',
      },
      { file: `${CHECKOUT}/request-validation.test.ts`, title: 'no full PII in the logs of a refused body' },
      {
        file: `${WEBHOOK}/authenticity.test.ts`,
        title:
          'no secret or full PII in the webhook logs: a refused and a fulfilled delivery log ids and reasons only',
      },
      {
        file: `${WEBHOOK}/failures.test.ts`,
        title:
          "no full PII in the logs: the customer's address is kept out when SES refuses a message naming it",
      },
    ],
  },

  // Success page
  {
    section: 'Success page',
    name: 'Lookup returns the minimum: status, reference, bottles, total, dispatch date',
    tests: [
      {
        file: `${STATUS}/status-mapping.test.ts`,
        title: 'success lookup returns the minimum: status, reference, bottles, total, dispatch date',
      },
    ],
  },
  {
    section: 'Success page',
    name: 'Never name, address, phone or email',
    tests: [
      {
        file: `${STATUS}/status-mapping.test.ts`,
        title: 'success lookup never answers or logs the name, address, phone or email',
      },
    ],
  },
  {
    section: 'Success page',
    name: 'Lookup is read-only',
    tests: [
      {
        file: `${STATUS}/status-mapping.test.ts`,
        title: 'success lookup is read-only: the session and the webhook deliveries are as before',
      },
      {
        file: `${STATUS}/lookup-refusals.test.ts`,
        title:
          'success lookup cannot send email: no SES client in its bundle (it reads a page key by GetItem, the only action its role has: test/infra)',
      },
    ],
  },
  {
    section: 'Success page',
    name: 'Unknown or malformed id: 404',
    tests: [
      { file: `${STATUS}/lookup-refusals.test.ts`, title: 'success lookup of an unknown id: 404' },
      {
        file: `${STATUS}/lookup-refusals.test.ts`,
        title: 'success lookup of a malformed id (%s): 404, without asking Stripe',
      },
    ],
  },
  {
    section: 'Success page',
    name: 'Unpaid, open or expired sessions never show "Payment Successful!"',
    tests: [
      {
        file: 'test/web/features/success/success-page.test.tsx',
        title: '%s session: never shows "Payment Successful!"',
      },
      {
        file: 'test/e2e/delayed-payment.spec.ts',
        title:
          'a Direct Debit that settles later and fails: no order, never "Payment Successful!", one email to the customer and one to the merchant',
      },
    ],
  },

  // Email
  {
    section: 'Email',
    name: 'Hostile names and addresses come out escaped in the HTML part',
    tests: [
      {
        file: 'test/lambdas/domain/fulfilment/fulfil-checkout.test.ts',
        title:
          'names and addresses like <img src=x onerror=alert(1)> and "><a href=...> come out escaped in the HTML part of both emails',
      },
    ],
  },
  {
    section: 'Email',
    name: 'The subject never carries CR/LF',
    tests: [
      {
        file: 'test/lambdas/domain/emails/render.test.ts',
        title: 'the subject never carries CR/LF: CR, LF and other separators cannot start a header',
      },
      {
        file: 'test/lambdas/domain/fulfilment/fulfil-checkout.test.ts',
        title:
          'names and addresses like <img src=x onerror=alert(1)> and "><a href=...> come out escaped in the HTML part of both emails',
      },
    ],
  },
  {
    section: 'Email',
    name: 'Exactly one recipient per message',
    tests: [
      {
        file: `${WEBHOOK}/failures.test.ts`,
        title: 'exactly one recipient per message, replying to the seller or to the customer',
      },
    ],
  },

  // Infrastructure (on the synthesised template)
  {
    section: 'Infrastructure',
    name: 'Orders table: point-in-time recovery, deletion protection, retain on delete',
    tests: [
      {
        file: 'test/infra/orders-table.test.ts',
        title: 'orders table: point-in-time recovery and deletion protection',
      },
      {
        file: 'test/infra/orders-table.test.ts',
        title: 'orders table: retained on delete or replacement, not when its first create fails',
      },
    ],
  },
  {
    section: 'Infrastructure',
    name: 'S3: public access blocked, TLS enforced, only through origin access control',
    tests: [
      {
        file: 'test/infra/website.test.ts',
        title: 'S3: all public access blocked, objects owned by the bucket, access logged',
      },
      {
        file: 'test/infra/website.test.ts',
        title: 'S3: TLS enforced, readable only by this distribution through origin access control',
      },
    ],
  },
  {
    section: 'Infrastructure',
    name: 'CloudFront: security headers on every response',
    tests: [
      {
        file: 'test/infra/website.test.ts',
        title:
          'CloudFront security headers: HSTS for two years, the CSP, nosniff, DENY framing, a referrer policy keeping session_id on the site',
      },
      {
        file: 'test/infra/website.test.ts',
        title:
          "CloudFront CSP: default-src 'self', object-src 'none', base-uri 'none', frame-ancestors 'none', the inlined style by hash, nothing unsafe",
      },
      {
        file: 'test/infra/website.test.ts',
        title:
          'CloudFront security headers on every response: the site behaviour and the API behaviour alike',
      },
    ],
  },
  {
    section: 'Infrastructure',
    name: 'API: throttling on every route, a lower limit on checkout',
    tests: [
      {
        file: 'test/infra/checkout-api.test.ts',
        title: 'API throttling on every route, through the stage default',
      },
      {
        file: 'test/infra/checkout-api.test.ts',
        title: 'API throttling: an explicit limit on each route, the lowest on checkout',
      },
    ],
  },
  {
    section: 'Infrastructure',
    name: 'Each Lambda its own role, scoped to the exact resources it needs',
    tests: [
      {
        file: 'test/infra/shop-function.test.ts',
        title: 'each Lambda its own role, assumable only by Lambda, with no managed policy',
      },
      {
        file: 'test/infra/shop-function.test.ts',
        title: 'each role scoped to exact resources: no wildcard action or resource on any shop function',
      },
    ],
  },
  {
    section: 'Infrastructure',
    name: 'The success lookup cannot write orders or send email',
    tests: [
      {
        file: 'test/infra/shop-function.test.ts',
        title:
          'the success lookup cannot write orders or send email: GetItem its only DynamoDB action, no SES action in its role',
      },
    ],
  },
  {
    section: 'Infrastructure',
    name: 'No Stripe key or webhook secret in code, template or plain environment variables',
    tests: [
      {
        file: 'test/architecture/no-stripe-secrets.test.ts',
        title: 'no Stripe key or webhook secret in code: no file of the repository holds one',
      },
      {
        file: 'test/infra/shop-stack.test.ts',
        title: 'no Stripe key or webhook secret in the template: none appears in either template as a value',
      },
      {
        file: 'test/infra/shop-stack.test.ts',
        title:
          'no Stripe key or webhook secret in plain environment variables: functions know them by ARN only, each the key of its trust level',
      },
    ],
  },
  {
    section: 'Infrastructure',
    name: 'cdk-nag AwsSolutions passes, each acknowledgement naming the rule and the control',
    tests: [
      {
        file: 'test/infra/nag.test.ts',
        title: 'cdk-nag AwsSolutions checks pass: no unacknowledged finding, error or warning',
      },
      {
        file: 'test/infra/nag.test.ts',
        title:
          'cdk-nag acknowledgements: only these, each naming the rule and the control that makes it safe',
      },
    ],
  },
];

interface FoundTitle {
  title: string;
  /** `skip`, `todo` or `only` when the call carries one; a skipped test checks nothing. */
  modifier: string | undefined;
}

const TEST_FUNCTIONS = new Set(['it', 'test', 'describe']);
const MODIFIERS = new Set(['skip', 'todo', 'only', 'fails', 'concurrent', 'sequential']);

/**
 * The name chain of a test call's callee: `it` → ['it'], `it.skip` → ['it', 'skip'],
 * `it.each([...])` → ['it', 'each']. Anything else → undefined.
 */
function calleeChain(node: ts.Expression): string[] | undefined {
  if (ts.isIdentifier(node)) return [node.text];
  if (ts.isPropertyAccessExpression(node)) {
    const head = calleeChain(node.expression);
    return head && [...head, node.name.text];
  }
  if (ts.isCallExpression(node)) {
    // `it.each(table)` is itself called with the title.
    const head = calleeChain(node.expression);
    return head?.at(-1) === 'each' ? head : undefined;
  }
  return undefined;
}

/** Every title of an `it`, `test` or `describe` call in a test file, as the parser reads it. */
function testTitles(source: string, fileName: string): FoundTitle[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: FoundTitle[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const chain = calleeChain(node.expression);
      const [first] = node.arguments;
      if (
        chain?.[0] !== undefined &&
        TEST_FUNCTIONS.has(chain[0]) &&
        chain.slice(1).every((part) => MODIFIERS.has(part) || part === 'each') &&
        first !== undefined &&
        (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))
      ) {
        found.push({
          title: first.text,
          modifier: chain.find((part) => part === 'skip' || part === 'todo' || part === 'only'),
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return /\.tsx?$/.test(entry.name) ? [relative(REPO_ROOT, path)] : [];
  });
}

/** Why a case's test is not where the list says, or `undefined` when it is there and runs. */
function problemWith(test: NamedTest, titlesByFile: Map<string, FoundTitle[]>): string | undefined {
  const inFile = titlesByFile.get(test.file);
  if (inFile === undefined) return `${test.file} does not exist`;
  const match = inFile.find((found) => found.title === test.title);
  if (match?.modifier === 'skip' || match?.modifier === 'todo') {
    return `"${test.title}" in ${test.file} is marked .${match.modifier}`;
  }
  if (match) return undefined;
  const elsewhere = [...titlesByFile].find(([, titles]) =>
    titles.some((found) => found.title === test.title),
  );
  return elsewhere
    ? `"${test.title}" moved from ${test.file} to ${elsewhere[0]}`
    : `no test titled "${test.title}" in ${test.file}`;
}

describe('payments and reliability: every case has a named test', () => {
  const titlesByFile = new Map(
    testFiles(join(REPO_ROOT, 'test')).map((file) => [
      file,
      testTitles(readFileSync(join(REPO_ROOT, file), 'utf8'), file),
    ]),
  );

  it('lists each case once, each with at least one test', () => {
    const names = RELIABILITY_CASES.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
    expect(RELIABILITY_CASES.filter((entry) => entry.tests.length === 0)).toEqual([]);
    expect(new Set(RELIABILITY_CASES.map((entry) => entry.section))).toEqual(
      new Set([
        'Webhook authenticity',
        'Exactly once',
        'Checkout endpoint',
        'Success page',
        'Email',
        'Infrastructure',
      ]),
    );
  });

  it.each(RELIABILITY_CASES.map((entry) => [`${entry.section}: ${entry.name}`, entry] as const))(
    '%s',
    (_label, entry) => {
      const problems = entry.tests.flatMap((test) => problemWith(test, titlesByFile) ?? []);
      expect(problems, `case "${entry.name}" (${entry.section}) lost its test`).toEqual([]);
    },
  );

  it(`is listed in ${TABLE}, each case with the files of its tests`, () => {
    expect(existsSync(join(REPO_ROOT, TABLE))).toBe(true);
    // Cells trimmed: the formatter pads the columns to one width.
    const rows = readFileSync(join(REPO_ROOT, TABLE), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('|'))
      .map((line) => line.split(' | ').map((cell) => cell.replace(/^\|/, '').replace(/\|$/, '').trim()));
    const missing = RELIABILITY_CASES.flatMap((entry) => {
      const row = rows.find(([name]) => name === entry.name);
      if (row === undefined) return [`no row for "${entry.name}"`];
      const files = row.slice(1).join(' ');
      return [...new Set(entry.tests.map((test) => test.file))]
        .filter((file) => !files.includes(`\`${file}\``))
        .map((file) => `the row of "${entry.name}" does not name ${file}`);
    });
    expect(missing).toEqual([]);
  });
});

describe('testTitles, the reader behind the index', () => {
  it('reads it, test and describe titles, through .each and modifiers, and marks skipped ones', () => {
    const source = [
      "describe('a block', () => {",
      "  it('a test', () => {});",
      "  it.each([1, 2])('row %i', () => {});",
      "  test.skip('a skipped test', () => {});",
      '  it.todo(`a todo`);',
      "  describe.each([['x']])('block %s', () => {});",
      "  helper('not a test');",
      '});',
    ].join('\n');

    expect(testTitles(source, 'probe.test.ts')).toEqual([
      { title: 'a block', modifier: undefined },
      { title: 'a test', modifier: undefined },
      { title: 'row %i', modifier: undefined },
      { title: 'a skipped test', modifier: 'skip' },
      { title: 'a todo', modifier: 'todo' },
      { title: 'block %s', modifier: undefined },
    ]);
  });

  it('does not take a title that only appears in a comment or another string', () => {
    const source = "// it('a case')\nconst text = \"it('a case')\";\nit('another case', () => {});";

    expect(testTitles(source, 'probe.test.ts').map((found) => found.title)).toEqual(['another case']);
  });
});
