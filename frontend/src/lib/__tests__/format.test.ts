import { describe, expect, it } from 'vitest';
import { formatEuro } from '../format';

describe('formatEuro (issue 5: 19 € vs €19)', () => {
  it('puts the euro sign after the amount in German and before it in English', () => {
    expect(formatEuro(19, 'de').replace(/\s/g, ' ')).toBe('19 €');
    expect(formatEuro(19, 'en')).toBe('€19');
    expect(formatEuro(99, 'de').replace(/\s/g, ' ')).toBe('99 €');
    expect(formatEuro(49.5, 'en')).toBe('€49.50');
    expect(formatEuro(49.5, 'de').replace(/\s/g, ' ')).toBe('49,50 €');
  });
});
