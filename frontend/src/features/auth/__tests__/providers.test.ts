import { describe, expect, it } from 'vitest';
import { offeredProviders } from '../api/providers';

describe('offeredProviders (the OAuth buttons of the login page)', () => {
  it('offers only the product providers that Auth /settings reports enabled, in the product order', () => {
    expect(offeredProviders({ external: { google: true, linkedin_oidc: true, github: true, email: true } })).toEqual(['google', 'linkedin_oidc']);
    expect(offeredProviders({ external: { linkedin_oidc: true, google: false } })).toEqual(['linkedin_oidc']);
    expect(offeredProviders({ external: { google: true } })).toEqual(['google']);
    expect(offeredProviders({ external: { google: false, linkedin_oidc: false, github: true } })).toEqual([]);
  });

  it('offers none for a malformed answer', () => {
    for (const answer of [null, undefined, 'x', {}, { external: null }, { external: { google: 'true' } }]) {
      expect(offeredProviders(answer)).toEqual([]);
    }
  });
});
