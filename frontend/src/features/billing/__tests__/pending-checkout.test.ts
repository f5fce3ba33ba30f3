import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearPendingCheckout, readPendingCheckout, rememberPendingCheckout } from '../api/pending-checkout';

/** Minimal Storage for the node test environment. */
function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (k) => map.get(k) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => void map.delete(k),
    setItem: (k, v) => void map.set(k, String(v)),
  };
}

describe('pending checkout (spec §4: selectedPlan + pricePlan survive the login)', () => {
  beforeEach(() => vi.stubGlobal('localStorage', memoryStorage()));
  afterEach(() => vi.unstubAllGlobals());

  it('stores plan and period under the spec keys and removes both', () => {
    rememberPendingCheckout({ planId: 'premium', billingPeriod: 'yearly' });
    expect(localStorage.getItem('selectedPlan')).toBe('premium');
    expect(localStorage.getItem('pricePlan')).toBe('yearly');
    expect(readPendingCheckout()).toEqual({ planId: 'premium', billingPeriod: 'yearly' });
    clearPendingCheckout();
    expect(localStorage.getItem('selectedPlan')).toBeNull();
    expect(localStorage.getItem('pricePlan')).toBeNull();
    expect(readPendingCheckout()).toBeNull();
  });

  it('ignores unusable values: enterprise (sold via Contact Us), unknown periods; a missing period means monthly', () => {
    localStorage.setItem('selectedPlan', 'enterprise');
    expect(readPendingCheckout()).toBeNull();
    localStorage.setItem('selectedPlan', 'basic');
    localStorage.setItem('pricePlan', 'weekly');
    expect(readPendingCheckout()).toBeNull();
    localStorage.removeItem('pricePlan');
    expect(readPendingCheckout()).toEqual({ planId: 'basic', billingPeriod: 'monthly' });
  });

  it('survives disabled storage', () => {
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    });
    expect(() => rememberPendingCheckout({ planId: 'basic', billingPeriod: 'monthly' })).not.toThrow();
    expect(readPendingCheckout()).toBeNull();
    expect(() => clearPendingCheckout()).not.toThrow();
  });
});
