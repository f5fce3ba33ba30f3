import { describe, expect, it } from 'vitest';
import { BillingFunctionError } from '../api/billing-error';
import { failureFor } from '../verification-messages';

describe('failureFor (spec §8 payment messages)', () => {
  it('names the missing session id without a retry', () => {
    expect(failureFor('success', 'missing')).toEqual({ messageId: 'billing.verify.missingSession', retry: false });
    expect(failureFor('signup', 'missing')).toEqual({ messageId: 'billing.verify.noSessionFound', retry: false });
  });

  it('success page: 4xx → could not verify, 5xx or no answer → try later', () => {
    expect(failureFor('success', 'verify', new BillingFunctionError(400, 'payment_not_completed', 'Payment not completed')).messageId).toBe(
      'billing.verify.couldNotVerify',
    );
    expect(failureFor('success', 'verify', new BillingFunctionError(503, 'stripe_unavailable', 'down')).messageId).toBe('billing.verify.errorLater');
    expect(failureFor('success', 'verify', new BillingFunctionError(0, 'network_error', 'offline')).messageId).toBe('billing.verify.errorLater');
  });

  it('signup page names the error; the profile update failure offers a retry', () => {
    expect(failureFor('signup', 'verify', new BillingFunctionError(400, 'payment_not_completed', 'Payment not completed'))).toEqual({
      messageId: 'billing.verify.errorWithDetail',
      values: { error: 'Payment not completed' },
      retry: true,
    });
    expect(failureFor('success', 'update')).toEqual({ messageId: 'billing.verify.updateFailed', retry: true });
  });

  it('a refunded second subscription (409 duplicate_subscription, issue 12) says so on both pages, without retry', () => {
    const dup = new BillingFunctionError(409, 'duplicate_subscription', 'You already have an active subscription.');
    for (const variant of ['success', 'signup'] as const) {
      expect(failureFor(variant, 'verify', dup)).toEqual({ messageId: 'billing.verify.duplicateRefunded', retry: false });
    }
  });
});
