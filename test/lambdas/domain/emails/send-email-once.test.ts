import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSesEmailSender, type EmailSender } from '../../../../lambdas/domain/emails/send-email';
import { type EmailToSend, sendEmailOnce, sendOnce } from '../../../../lambdas/domain/emails/send-email-once';
import { updateIf } from '../../../../lambdas/domain/storage/conditional-writes';
import type { ShopTable } from '../../../../lambdas/domain/storage/orders-table';
import { emailClaimStore, emailDue, supersedeEmail } from '../../../../lambdas/domain/storage/send-once';
import { createSesClient } from '../../../../lambdas/lib/ses-client';
import { injectAwsFault } from '../../../support/aws-faults';
import { captureLogs } from '../../../support/logs';
import { STAND_IN_REGION, type StandIns, startStandIns } from '../../../support/stand-ins';

// The at-most-once protocol of every email, item by item against dynalite and the SES stand-in:
// each transition's condition, what it writes and what it forgets.

let standIns: StandIns;
let table: ShopTable;
let ses: ReturnType<typeof createSesClient>;
let sender: EmailSender;
beforeAll(async () => {
  standIns = await startStandIns();
  table = { client: standIns.inspector, tableName: standIns.tableName };
  ses = createSesClient({ region: STAND_IN_REGION, endpoint: standIns.sesEndpoint });
  sender = createSesEmailSender(ses, { from: 'orders@live-aquatics.test' });
});
afterAll(() => standIns?.close());

const NOW = new Date('2026-12-01T10:00:00.000Z');
const now = () => NOW;

let serial = 0;
/** A fresh item of its own, with the fields given: each test reads only its own. */
async function item(fields: Record<string, unknown>): Promise<string> {
  serial += 1;
  const pk = `REQUEST#RTEST${String(serial).padStart(7, '0')}`;
  await standIns.inspector.send(new PutCommand({ TableName: standIns.tableName, Item: { pk, ...fields } }));
  return pk;
}

async function read(pk: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await standIns.inspector.send(
    new GetCommand({ TableName: standIns.tableName, Key: { pk }, ConsistentRead: true }),
  );
  return Item;
}

const message = (to: string) => () => ({
  to,
  content: { subject: 'Your order request', text: 'Declined.', html: '<p>Declined.</p>' },
});

async function emailsTo(address: string) {
  return (await standIns.emails()).filter((email) => email.destination.to.includes(address));
}

describe('sendOnce: a pending email', () => {
  it('is sent once and recorded sent with when and the message id; a second run sends nothing', async () => {
    const pk = await item({ status: 'declined', declineEmailState: 'pending' });

    let first: unknown;
    const logs = await captureLogs(async () => {
      first = await sendOnce(pk, 'decline', message('once@example.com'), { table, sender, now });
    });
    const second = await sendOnce(pk, 'decline', message('once@example.com'), { table, sender, now });

    expect([first, second]).toEqual(['sent', 'not-sent']);
    expect(logs.filter((line) => line.level === 'WARN')).toEqual([]);
    const sent = await emailsTo('once@example.com');
    expect(sent).toHaveLength(1);
    expect(await read(pk)).toEqual({
      pk,
      status: 'declined',
      declineEmailState: 'sent',
      declineEmailClaimedAt: '2026-12-01T10:00:00.000Z',
      declineEmailSentAt: '2026-12-01T10:00:00.000Z',
      declineEmailMessageId: sent[0]?.messageId,
    });
  });

  it('sends nothing for an email never made due, nor one superseded or refused for good', async () => {
    const never = await item({ status: 'declined' });
    const superseded = await item({ status: 'declined', declineEmailState: 'superseded' });
    const failed = await item({ status: 'declined', declineEmailState: 'failed' });

    const outcomes = await Promise.all(
      [never, superseded, failed].map((pk) =>
        sendOnce(pk, 'decline', message('never@example.com'), { table, sender, now }),
      ),
    );

    expect(outcomes).toEqual(['not-sent', 'not-sent', 'not-sent']);
    expect(await emailsTo('never@example.com')).toHaveLength(0);
  });
});

describe('sendOnce: a claim another attempt holds', () => {
  it('is left alone while under 2 minutes old, even at exactly 2 minutes; taken over just after', async () => {
    const fresh = await item({
      declineEmailState: 'sending',
      declineEmailClaimedAt: '2026-12-01T09:58:00.001Z',
      declineEmailClaimToken: 'theirs',
    });
    const atTwoMinutes = await item({
      declineEmailState: 'sending',
      declineEmailClaimedAt: '2026-12-01T09:58:00.000Z',
      declineEmailClaimToken: 'theirs',
    });
    const stale = await item({
      declineEmailState: 'sending',
      declineEmailClaimedAt: '2026-12-01T09:57:59.999Z',
      declineEmailClaimToken: 'theirs',
    });

    const outcomes = [];
    for (const pk of [fresh, atTwoMinutes, stale])
      outcomes.push(
        await sendOnce(pk, 'decline', message('stale.claim@example.com'), { table, sender, now }),
      );

    expect(outcomes).toEqual(['not-sent', 'not-sent', 'sent']);
    expect(await emailsTo('stale.claim@example.com')).toHaveLength(1);
    expect(await read(stale)).toMatchObject({
      declineEmailState: 'sent',
      declineEmailClaimedAt: '2026-12-01T10:00:00.000Z',
    });
    expect(await read(stale)).not.toHaveProperty('declineEmailClaimToken');
    expect(await read(fresh)).toMatchObject({
      declineEmailState: 'sending',
      declineEmailClaimToken: 'theirs',
    });
  });
});

describe('sendOnce: a guarded email', () => {
  it('goes out only while the item is in the status it describes', async () => {
    const still = await item({ status: 'dispatched', dispatchEmailState: 'pending' });
    const movedOn = await item({ status: 'refunded', dispatchEmailState: 'pending' });

    const outcomes = [];
    for (const pk of [still, movedOn])
      outcomes.push(
        await sendOnce(
          pk,
          'dispatch',
          message('guarded@example.com'),
          { table, sender, now },
          { status: 'dispatched' },
        ),
      );

    expect(outcomes).toEqual(['sent', 'not-sent']);
    expect(await read(movedOn)).toMatchObject({ dispatchEmailState: 'pending' });
  });

  it('waits while an email it overrides holds a fresh claim; not for a stale claim, a sent one or none', async () => {
    const base = { status: 'refunded', refundEmailState: 'pending' };
    const freshDispatch = await item({
      ...base,
      dispatchEmailState: 'sending',
      dispatchEmailClaimedAt: '2026-12-01T09:59:00.000Z',
    });
    const staleDispatch = await item({
      ...base,
      dispatchEmailState: 'sending',
      dispatchEmailClaimedAt: '2026-12-01T09:57:00.000Z',
    });
    const sentDispatch = await item({
      ...base,
      dispatchEmailState: 'sent',
      dispatchEmailClaimedAt: '2026-12-01T09:59:00.000Z',
    });
    const noDispatch = await item(base);
    const freshDelayOnly = await item({
      ...base,
      delayEmailState: 'sending',
      delayEmailClaimedAt: '2026-12-01T09:59:00.000Z',
    });

    const outcomes = [];
    for (const pk of [freshDispatch, staleDispatch, sentDispatch, noDispatch])
      outcomes.push(
        await sendOnce(
          pk,
          'refund',
          message('after@example.com'),
          { table, sender, now },
          {
            status: 'refunded',
            after: ['dispatch'],
          },
        ),
      );
    const twoKinds = await sendOnce(
      freshDelayOnly,
      'refund',
      message('after@example.com'),
      { table, sender, now },
      { status: 'refunded', after: ['dispatch', 'delay'] },
    );

    expect(outcomes).toEqual(['not-sent', 'sent', 'sent', 'sent']);
    expect(twoKinds).toBe('not-sent');
    expect(await emailsTo('after@example.com')).toHaveLength(3);
  });
});

describe('sendEmailOnce: when SES fails', () => {
  const store = () => emailClaimStore(table);
  const email = (pk: string, to: string, extra: Partial<EmailToSend<string, 'decline'>> = {}) => ({
    id: pk,
    kind: 'decline' as const,
    message: message(to),
    log: { pk },
    ...extra,
  });

  it('a transient failure hands the claim back (pending, no token, no claim time) and throws; the next attempt sends', async () => {
    const pk = await item({ declineEmailState: 'pending' });
    const fault = injectAwsFault(ses, { command: 'SendEmailCommand', when: 'before' });

    const failed = sendEmailOnce(email(pk, 'transient@example.com'), { store: store(), sender, now });

    await expect(failed).rejects.toThrow('Injected fault before SendEmailCommand');
    fault.remove();
    expect(await read(pk)).toEqual({ pk, declineEmailState: 'pending' });
    const again = await sendEmailOnce(email(pk, 'transient@example.com'), { store: store(), sender, now });
    expect(again.outcome).toBe('sent');
    expect(await emailsTo('transient@example.com')).toHaveLength(1);
  });

  it('a refusal for good is recorded failed with when and why, final', async () => {
    const pk = await item({ declineEmailState: 'pending' });
    const fault = injectAwsFault(ses, { command: 'SendEmailCommand', when: 'before' });

    const result = await sendEmailOnce(
      email(pk, 'refused@example.com', { refusedForGood: () => 'MessageRejected' }),
      { store: store(), sender, now },
    );
    fault.remove();

    expect(result).toEqual({ outcome: 'refused', reason: 'MessageRejected' });
    expect(await read(pk)).toEqual({
      pk,
      declineEmailState: 'failed',
      declineEmailClaimedAt: '2026-12-01T10:00:00.000Z',
      declineEmailFailedAt: '2026-12-01T10:00:00.000Z',
      declineEmailFailureReason: 'MessageRejected',
    });
    const later = await sendEmailOnce(email(pk, 'refused@example.com'), { store: store(), sender, now });
    expect(later).toEqual({ outcome: 'claimed-elsewhere' });
    expect(await emailsTo('refused@example.com')).toHaveLength(0);
  });

  it('a transient failure the refusal rule does not name is not recorded failed', async () => {
    const pk = await item({ declineEmailState: 'pending' });
    const fault = injectAwsFault(ses, { command: 'SendEmailCommand', when: 'before' });

    const failed = sendEmailOnce(email(pk, 'not.for.good@example.com', { refusedForGood: () => undefined }), {
      store: store(),
      sender,
      now,
    });

    await expect(failed).rejects.toThrow('Injected fault');
    fault.remove();
    expect(await read(pk)).toEqual({ pk, declineEmailState: 'pending' });
  });

  it('a release that fails is logged and the send error still thrown; the claim goes stale', async () => {
    const pk = await item({ declineEmailState: 'pending' });
    const sesFault = injectAwsFault(ses, { command: 'SendEmailCommand', when: 'before' });
    const releaseFault = injectAwsFault(standIns.inspector, {
      command: 'UpdateItemCommand',
      matches: (input) => JSON.stringify(input).includes('SET #state = :pending'),
      when: 'before',
    });

    let thrown: unknown;
    const logs = await captureLogs(() =>
      sendEmailOnce(email(pk, 'release.fails@example.com'), { store: store(), sender, now }).catch(
        (error) => {
          thrown = error;
        },
      ),
    );
    sesFault.remove();
    releaseFault.remove();

    expect(String(thrown)).toContain('Injected fault before SendEmailCommand');
    expect(releaseFault.fired).toBe(1);
    expect(await read(pk)).toMatchObject({ declineEmailState: 'sending' });
    expect(logs.filter((line) => line.level === 'WARN')).toEqual([
      expect.objectContaining({
        message: 'Could not release an email claim; it will be retried once stale',
        pk,
        kind: 'decline',
        error: expect.objectContaining({ message: 'Injected fault before UpdateItemCommand' }),
      }),
    ]);
  });
});

describe('sendEmailOnce: a claim already held, and one taken over', () => {
  const store = () => emailClaimStore(table);

  it('sends under a claim written with the item (heldToken) without claiming again', async () => {
    const pk = await item({
      declineEmailState: 'sending',
      declineEmailClaimedAt: '2026-12-01T10:00:00.000Z',
      declineEmailClaimToken: 'written-with-the-item',
    });

    const result = await sendEmailOnce(
      {
        id: pk,
        kind: 'decline',
        message: message('held@example.com'),
        log: {},
        heldToken: 'written-with-the-item',
      },
      { store: store(), sender, now },
    );

    expect(result.outcome).toBe('sent');
    expect(await read(pk)).toMatchObject({ declineEmailState: 'sent' });
  });

  it('says sent, and warns, when its claim was taken over while SES sent it', async () => {
    const pk = await item({ declineEmailState: 'pending' });
    // Another attempt takes the claim over (as stale) while this one's message is with SES.
    const takenOver: EmailSender = {
      async send(outgoing) {
        await standIns.inspector.send(
          new UpdateCommand({
            TableName: standIns.tableName,
            Key: { pk },
            UpdateExpression: 'SET declineEmailClaimToken = :other',
            ExpressionAttributeValues: { ':other': 'another-attempt' },
          }),
        );
        return sender.send(outgoing);
      },
    };

    let result: unknown;
    const logs = await captureLogs(async () => {
      result = await sendEmailOnce(
        { id: pk, kind: 'decline', message: message('taken.over@example.com'), log: { reference: 'RTAKEN' } },
        { store: store(), sender: takenOver, now },
      );
    });

    const [sent] = await emailsTo('taken.over@example.com');
    expect(result).toEqual({ outcome: 'sent', messageId: sent?.messageId });
    expect(await read(pk)).toMatchObject({
      declineEmailState: 'sending',
      declineEmailClaimToken: 'another-attempt',
    });
    expect(logs.filter((line) => line.level === 'WARN')).toEqual([
      expect.objectContaining({ reference: 'RTAKEN', kind: 'decline', messageId: sent?.messageId }),
    ]);
  });

  it('a refusal whose claim was taken over meanwhile records nothing and says claimed elsewhere', async () => {
    const pk = await item({ declineEmailState: 'pending' });
    const refusing: EmailSender = {
      async send() {
        await standIns.inspector.send(
          new UpdateCommand({
            TableName: standIns.tableName,
            Key: { pk },
            UpdateExpression: 'SET declineEmailClaimToken = :other',
            ExpressionAttributeValues: { ':other': 'another-attempt' },
          }),
        );
        throw new Error('refused');
      },
    };

    const result = await sendEmailOnce(
      {
        id: pk,
        kind: 'decline',
        message: message('x@example.com'),
        log: {},
        refusedForGood: () => 'MessageRejected',
      },
      { store: store(), sender: refusing, now },
    );

    expect(result).toEqual({ outcome: 'claimed-elsewhere' });
    expect(await read(pk)).not.toHaveProperty('declineEmailFailureReason');
  });
});

describe('emailDue and supersedeEmail', () => {
  it('emailDue makes an email pending again and forgets its earlier claim and send', async () => {
    const pk = await item({
      status: 'paid',
      delayEmailState: 'sent',
      delayEmailClaimedAt: '2026-11-20T10:00:00.000Z',
      delayEmailClaimToken: 'old',
      delayEmailSentAt: '2026-11-20T10:00:01.000Z',
      delayEmailMessageId: 'old-message',
    });
    const due = emailDue('delay');

    const written = await updateIf(table, pk, {
      UpdateExpression: `SET ${due.set} REMOVE ${due.remove}`,
      ExpressionAttributeNames: due.names,
      ExpressionAttributeValues: { ':pending': 'pending' },
    });

    expect(written).toBe(true);
    expect(await read(pk)).toEqual({ pk, status: 'paid', delayEmailState: 'pending' });
  });

  it('two emails made due by one update each keep their own names', async () => {
    const pk = await item({ status: 'paid', delayEmailState: 'sent', dispatchEmailState: 'sent' });
    const [delay, dispatch] = [emailDue('delay'), emailDue('dispatch')];

    await updateIf(table, pk, {
      UpdateExpression: `SET ${delay.set}, ${dispatch.set} REMOVE ${delay.remove}, ${dispatch.remove}`,
      ExpressionAttributeNames: { ...delay.names, ...dispatch.names },
      ExpressionAttributeValues: { ':pending': 'pending' },
    });

    expect(await read(pk)).toEqual({
      pk,
      status: 'paid',
      delayEmailState: 'pending',
      dispatchEmailState: 'pending',
    });
  });

  it('sendOnce names the item in the warning when its claim cannot be handed back', async () => {
    const pk = await item({ declineEmailState: 'pending' });
    const sesFault = injectAwsFault(ses, { command: 'SendEmailCommand', when: 'before' });
    const releaseFault = injectAwsFault(standIns.inspector, {
      command: 'UpdateItemCommand',
      matches: (input) => JSON.stringify(input).includes('SET #state = :pending'),
      when: 'before',
    });

    const logs = await captureLogs(() =>
      sendOnce(pk, 'decline', message('named@example.com'), { table, sender, now }).catch(() => undefined),
    );
    sesFault.remove();
    releaseFault.remove();

    expect(logs.filter((line) => line.level === 'WARN')).toEqual([
      expect.objectContaining({ pk, kind: 'decline' }),
    ]);
  });

  it('supersedes only a pending email of an item still in the status named', async () => {
    const pending = await item({ status: 'paid', dispatchEmailState: 'pending' });
    const movedOn = await item({ status: 'refunded', dispatchEmailState: 'pending' });
    const sent = await item({ status: 'paid', dispatchEmailState: 'sent' });

    const results = [];
    for (const pk of [pending, movedOn, sent])
      results.push(await supersedeEmail(table, pk, 'dispatch', 'paid'));

    expect(results).toEqual([true, false, false]);
    expect((await read(pending))?.dispatchEmailState).toBe('superseded');
    expect((await read(movedOn))?.dispatchEmailState).toBe('pending');
    expect((await read(sent))?.dispatchEmailState).toBe('sent');
  });
});
