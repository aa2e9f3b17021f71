import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminCallOptions } from '../../../../shared/admin-client-core';
import { adminOrderViewSchema } from '../../../../shared/admin-responses';
import type { AdminApi, AdminOutcome } from '../../../../web/src/features/admin/admin-api';
import { PartRefundSection } from '../../../../web/src/features/admin/order-after-dispatch';

const ORDER = adminOrderViewSchema.parse({
  kind: 'order',
  reference: 'a1b2c3d4e5f6',
  status: 'paid',
  dispatchDate: '2026-11-30',
  bottles: 3,
  unitPricePence: 325,
  subtotalPence: 975,
  shippingPence: 495,
  totalPence: 1470,
  customerName: 'Jane Doe',
  customerEmail: 'jane@example.com',
  customerPhone: '07700 900123',
  deliveryAddress: '1 Pond Lane\nLeeds',
  postcode: 'LS1 4AP',
  createdAt: '2026-11-25T10:00:00.000Z',
  paidAt: '2026-11-25T10:00:05.000Z',
  placedWhilePaused: false,
  refundablePence: 1470,
  emails: [],
  history: [],
  payment: {
    checkoutSessionId: 'cs_test_a1b2c3d4e5f6',
    paymentIntentId: 'pi_123',
    livemode: false,
    dashboardUrl: 'https://dashboard.stripe.com/test/payments/pi_123',
  },
});

type Sent = { body: unknown; options: AdminCallOptions | undefined };

/** The page's API with a part refund that answers what the test queues, one answer a call. */
function fakeApi(sent: Sent[], answers: Array<Promise<AdminOutcome<unknown>>>): AdminApi {
  const refundPart = (body: unknown, options?: AdminCallOptions) => {
    sent.push({ body, options });
    return answers.shift() ?? Promise.resolve({ ok: false, kind: 'failed', message: 'no answer queued' });
  };
  // Only the part refund is called by this section.
  return { refundPart } as unknown as AdminApi;
}

const REPEAT =
  'A1B2C3D4E5F6: 1 bottle (£3.25) was refunded 4 minutes ago (17:02, by jo@example.co.uk). To refund the same again on purpose, confirm it again (CLI: --again).';

describe('the part refund: one key per confirmed intention', () => {
  it('sends one request with one key for a double tap on Confirm; a retry of Confirm reuses it; a new question a new one', async () => {
    const sent: Sent[] = [];
    let answer: (outcome: AdminOutcome<unknown>) => void = () => {};
    const held = new Promise<AdminOutcome<unknown>>((resolve) => {
      answer = resolve;
    });
    const user = userEvent.setup();
    render(
      <PartRefundSection
        api={fakeApi(sent, [held, Promise.resolve({ ok: false, kind: 'refused', message: REPEAT })])}
        order={ORDER}
        onUpdate={() => {}}
      />,
    );
    await user.selectOptions(screen.getByLabelText('Bottles to refund'), '1');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Reason' }), 'Arrived dead');
    await user.click(screen.getByRole('button', { name: 'Refund £3.25' }));
    await user.dblClick(screen.getByRole('button', { name: 'Confirm refund of £3.25' }));
    expect(sent).toHaveLength(1);
    answer({ ok: false, kind: 'failed', message: 'The answer did not arrive.' });
    // No answer: the question stays, and Confirm again sends the same intention's key.
    await user.click(await screen.findByRole('button', { name: 'Confirm refund of £3.25' }));
    expect(sent).toHaveLength(2);
    const [first, retry] = sent;
    expect(first?.options?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(retry?.options?.idempotencyKey).toBe(first?.options?.idempotencyKey);
    expect(retry?.body).toEqual({ reference: 'a1b2c3d4e5f6', bottles: 1, delivery: false, reason: 'doa' });

    // Refused as a repeat: the page offers the refund on purpose, a new intention with again: true.
    expect(await screen.findByText(REPEAT)).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Refund again on purpose' }));
    expect(sent).toHaveLength(3);
    expect(sent[2]?.body).toEqual({
      reference: 'a1b2c3d4e5f6',
      bottles: 1,
      delivery: false,
      reason: 'doa',
      again: true,
    });
    expect(sent[2]?.options?.idempotencyKey).not.toBe(first?.options?.idempotencyKey);
  });
});
