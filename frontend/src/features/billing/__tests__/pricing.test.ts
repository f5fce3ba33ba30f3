import { describe, expect, it } from 'vitest';
import { freeMonths, isBillingPeriod, savingPercent } from '../pricing';

describe('savingPercent (spec §9: saving vs monthly)', () => {
  it('computes the seeded Basic periods', () => {
    expect(savingPercent(1900, 1, 1900)).toBe(0);
    expect(savingPercent(5400, 3, 1900)).toBe(5);
    expect(savingPercent(10200, 6, 1900)).toBe(11);
    expect(savingPercent(19000, 12, 1900)).toBe(17);
  });
  it('never reports a negative saving or divides by zero', () => {
    expect(savingPercent(2500, 1, 1900)).toBe(0);
    expect(savingPercent(1000, 0, 1900)).toBe(0);
    expect(savingPercent(1000, 3, 0)).toBe(0);
  });
});

describe('freeMonths (issue 7: yearly shows 2 months free)', () => {
  it('is 2 for 10 monthly prices per year and 0 for monthly', () => {
    expect(freeMonths(19000, 12, 1900)).toBe(2);
    expect(freeMonths(49000, 12, 4900)).toBe(2);
    expect(freeMonths(99000, 12, 9900)).toBe(2);
    expect(freeMonths(1900, 1, 1900)).toBe(0);
    expect(freeMonths(5400, 3, 1900)).toBe(0);
    expect(freeMonths(22800, 12, 1900)).toBe(0);
  });
  it('recognises the enum values', () => {
    expect(isBillingPeriod('semiannual')).toBe(true);
    expect(isBillingPeriod('weekly')).toBe(false);
  });
});
