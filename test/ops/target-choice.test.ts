import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheckoutHandler, loadCheckoutDeps } from '../../lambdas/handlers/create-checkout/handler';
import { chooseTarget, readRememberedTarget, rememberTarget } from '../../ops/target-choice';
import { PUBLIC_API_ROUTES } from '../../shared/public-routes';
import { apiGatewayEvent } from '../support/api-gateway-event';
import { TEST_SHOP_ID } from '../support/shop';
import { standInEnvironment } from '../support/stand-ins';
import { type OpsHarness, startOpsHarness } from './harness';

const noFlags = { local: false, stage: undefined, region: undefined };

/** A fresh directory for one test's remembered target. */
function targetFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'orders-target-')), '.orders-target.json');
}

describe('chooseTarget: the command line, then ORDERS_STAGE, then the remembered file', () => {
  it('takes --local or --stage from the command line over ORDERS_STAGE and the file', () => {
    const env = { ORDERS_STAGE: 'prod' };
    const remembered = { kind: 'stage', stage: 'test', region: undefined } as const;
    expect(chooseTarget({ ...noFlags, local: true }, env, remembered)).toEqual({
      choice: { kind: 'local' },
      source: 'command line',
    });
    expect(chooseTarget({ ...noFlags, stage: 'dev', region: 'eu-west-1' }, env, remembered)).toEqual({
      choice: { kind: 'stage', stage: 'dev', region: 'eu-west-1' },
      source: 'command line',
    });
  });

  it('takes ORDERS_STAGE (and ORDERS_REGION) over the file; ORDERS_STAGE=local is the local stack', () => {
    const remembered = { kind: 'local' } as const;
    expect(chooseTarget(noFlags, { ORDERS_STAGE: 'prod', ORDERS_REGION: 'eu-west-1' }, remembered)).toEqual({
      choice: { kind: 'stage', stage: 'prod', region: 'eu-west-1' },
      source: 'ORDERS_STAGE',
    });
    expect(chooseTarget(noFlags, { ORDERS_STAGE: 'local' }, undefined)).toEqual({
      choice: { kind: 'local' },
      source: 'ORDERS_STAGE',
    });
    expect(
      chooseTarget(
        { ...noFlags, region: 'us-east-1' },
        { ORDERS_STAGE: 'prod', ORDERS_REGION: 'eu-west-1' },
        undefined,
      ),
    ).toEqual({ choice: { kind: 'stage', stage: 'prod', region: 'us-east-1' }, source: 'ORDERS_STAGE' });
  });

  it('takes the remembered target when nothing else says where, --region still applying', () => {
    const remembered = { kind: 'stage', stage: 'prod', region: 'eu-west-2' } as const;
    expect(chooseTarget(noFlags, { ORDERS_STAGE: '' }, remembered)).toEqual({
      choice: remembered,
      source: 'file',
    });
    expect(chooseTarget({ ...noFlags, region: 'eu-west-1' }, {}, remembered)).toEqual({
      choice: { kind: 'stage', stage: 'prod', region: 'eu-west-1' },
      source: 'file',
    });
  });

  it('has nothing to say without flags, ORDERS_STAGE or a file, and refuses --local with --stage', () => {
    expect(chooseTarget(noFlags, {}, undefined)).toBeUndefined();
    expect(chooseTarget({ local: true, stage: 'prod', region: undefined }, {}, undefined)).toBe('both');
  });
});

describe('the remembered target file', () => {
  it('reads back what it wrote: the local stack, a stage with or without its region', () => {
    const file = targetFile();
    expect(readRememberedTarget(file)).toBeUndefined();
    rememberTarget(file, { kind: 'local' });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ local: true });
    expect(readRememberedTarget(file)).toEqual({ kind: 'local' });
    rememberTarget(file, { kind: 'stage', stage: 'prod', region: 'eu-west-2' });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ stage: 'prod', region: 'eu-west-2' });
    expect(readRememberedTarget(file)).toEqual({ kind: 'stage', stage: 'prod', region: 'eu-west-2' });
    rememberTarget(file, { kind: 'stage', stage: 'dev', region: undefined });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ stage: 'dev' });
  });

  it('refuses a file it did not write, saying how to recover', () => {
    const file = targetFile();
    for (const content of ['not json', '{"stage": 7}', '[]']) {
      writeFileSync(file, content);
      expect(() => readRememberedTarget(file)).toThrow(
        `${file} does not say where (expected {"local": true} or {"stage": "NAME"}): delete it, or give --local or --stage NAME.`,
      );
    }
  });
});

let h: OpsHarness;
beforeAll(async () => {
  h = await startOpsHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('orders CLI: the remembered target, end to end on the local stack', () => {
  it('remembers the first --local, then acts there without it, saying where on stderr', async () => {
    const file = targetFile();
    const first = await h.orders(['status', '--local'], { targetFile: file });
    expect(first.code).toBe(0);
    expect(first.err).toMatch(/^\[local stack \(http:\/\/localhost:3000\)\]\n/);
    expect(first.err).toContain(
      `Remembered: later commands act on the local stack without --local or --stage (${file}; delete it to choose again).`,
    );
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ local: true });

    const later = await h.orders(['status'], { targetFile: file });
    expect(later.code).toBe(0);
    expect(later.err).toMatch(
      new RegExp(`^\\[local stack \\(http://localhost:3000\\)\\] remembered in ${file}$`),
    );
    expect(later.out).toContain('Next dispatch:');
  });

  it('remembers nothing when ORDERS_STAGE already says where, and writes no file', async () => {
    const file = targetFile();
    const run = await h.orders(['status'], { targetFile: file, env: { ORDERS_STAGE: 'local' } });
    expect(run.code).toBe(0);
    expect(run.err).toMatch(/^\[local stack \([^\]]+\)\] from ORDERS_STAGE$/);
    const flagged = await h.orders(['status', '--local'], {
      targetFile: file,
      env: { ORDERS_STAGE: 'local' },
    });
    expect(flagged.code).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it('does not remember a target it could not reach', async () => {
    const file = targetFile();
    // The harness reaches only the local stack, as a stage without a stack is unreachable.
    await expect(h.orders(['status', '--stage', 'prod'], { targetFile: file })).rejects.toThrow(
      'tests run the local stack only',
    );
    expect(existsSync(file)).toBe(false);
  });

  it("runs the merchant notice's suggested request-payment command as printed, with the target remembered", async () => {
    // Prepare: the shop takes requests, and a customer's request reaches the merchant's notice.
    expect((await h.orders(['pause', '--requests', '--local'])).code).toBe(0);
    const checkout = createCheckoutHandler(() =>
      loadCheckoutDeps({
        STRIPE_LIVEMODE: 'false',
        STRIPE_SECRET_KEY: 'sk_test_target_choice',
        STRIPE_API_BASE: h.shop.simulator.url,
        SITE_URL: 'http://shop.test',
        SHOP_ID: TEST_SHOP_ID,
        ...standInEnvironment(h.shop.standIns),
      }),
    );
    const answer = await checkout(
      apiGatewayEvent({
        method: 'POST',
        path: PUBLIC_API_ROUTES.createCheckout.path,
        headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: {
          name: 'Nora Notice',
          email: 'nora.notice@example.com',
          phone: '07700 900789',
          address: '5 Reed Row\nBath',
          postcode: 'BA1 1AA',
          quantity: 3,
          subtotal: 9.75,
          shipping: 4.95,
          total: 14.7,
        },
      }),
    );
    expect(answer.statusCode).toBe(200);
    const [item] = (await h.shop.standIns.orderItems()).filter(
      (i) => i.customerEmail === 'nora.notice@example.com',
    );
    const reference = String(item?.reference);
    const notice = (await h.emailsTo('merchant@live-aquatics.test')).find((e) =>
      e.body.text?.includes(reference),
    );
    const printed = /npm run orders -- (request-payment \S+?)\.?(\s|$)/.exec(notice?.body.text ?? '')?.[1];
    expect(printed).toBe(`request-payment ${reference}`);
    const args = String(printed).split(' ');

    // Act and assess: the command as printed, once with ORDERS_STAGE, once with the file.
    const viaEnv = await h.orders(args, { env: { ORDERS_STAGE: 'local' } });
    expect(viaEnv.code).toBe(0);
    // The link's expiry as London's clock reads it ("Thu 26 Nov, 13:15"), never a raw instant.
    expect(viaEnv.out).toMatch(
      new RegExp(
        `^${reference}: payment link emailed \\(valid until [A-Z][a-z]{2} \\d{1,2} [A-Z][a-z]{2}, \\d{2}:\\d{2}\\): http`,
      ),
    );
    const file = targetFile();
    rememberTarget(file, { kind: 'local' });
    const viaFile = await h.orders(args, { targetFile: file });
    expect(viaFile.err).not.toContain('Say where');
    expect(viaFile.err).toContain(`remembered in ${file}`);
    expect(viaFile.err).toContain(`Refused: ${reference} was already invited to pay`);
    await h.orders(['resume', '--local']);
  });
});
