import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type StripeSimulator, startStripeSimulator } from '../../../local/stripe-simulator/server';
import { rejectionOf, stripeFor } from './support';

let simulator: StripeSimulator;
let stripe: Stripe;

beforeEach(async () => {
  simulator = await startStripeSimulator({
    port: 0,
    restrictedKeys: { rk_test_checkout_only: ['checkout_session_write'] },
  });
  stripe = stripeFor(simulator);
});
afterEach(async () => {
  await simulator.close();
});

describe('GET /v1/account', () => {
  it('answers the account itself, a UK account with card and Bacs Direct Debit payments active', async () => {
    const account = await stripe.accounts.retrieve(null);

    expect(account).toMatchObject({
      id: 'acct_simulator',
      object: 'account',
      country: 'GB',
      default_currency: 'gbp',
      charges_enabled: true,
      capabilities: { card_payments: 'active', bacs_debit_payments: 'active' },
    });
  });

  it('answers the capabilities a test set, as Stripe does once a payment method is turned off', async () => {
    simulator.setCapabilities({ bacs_debit_payments: 'inactive' });

    const account = await stripe.accounts.retrieve(null);

    expect(account.capabilities).toEqual({ card_payments: 'active', bacs_debit_payments: 'inactive' });
  });

  it('refuses a restricted key without the permission with the 403 naming it', async () => {
    const error = await rejectionOf(
      stripe.accounts.retrieve(null, undefined, {
        apiKey: 'rk_test_checkout_only',
      }),
    );

    expect(error).toBeInstanceOf(Stripe.errors.StripePermissionError);
    expect(error).toMatchObject({ message: expect.stringContaining("'rak_account_read' permission") });
  });
});
