import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { forgetReturnPath, isSafeReturnPath, peekReturnPath, rememberReturnPath } from '../return-path';

/** A Map-backed localStorage for the node test environment. */
function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (key) => data.get(key) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (key) => void data.delete(key),
    setItem: (key, value) => void data.set(key, String(value)),
  };
}

describe('return path after login (issue 15 invitations)', () => {
  beforeEach(() => vi.stubGlobal('localStorage', memoryStorage()));
  afterEach(() => vi.unstubAllGlobals());

  it('accepts only internal paths', () => {
    expect(isSafeReturnPath('/invitations/abc')).toBe(true);
    expect(isSafeReturnPath('/de/org/x?y=1')).toBe(true);
    for (const bad of ['//evil.example/x', 'https://evil.example', '/\\evil.example', 'invitations/abc', '/javascript:alert(1)', '', null, undefined]) {
      expect(isSafeReturnPath(bad), String(bad)).toBe(false);
    }
  });

  it('a safe next parameter wins, else the remembered path until it is forgotten', () => {
    expect(peekReturnPath(null)).toBeNull();
    rememberReturnPath('/de/invitations/tok');
    expect(peekReturnPath(null)).toBe('/de/invitations/tok');
    expect(peekReturnPath(null)).toBe('/de/invitations/tok'); // peeking keeps it
    expect(peekReturnPath('/invitations/other')).toBe('/invitations/other');
    expect(peekReturnPath('//evil.example')).toBe('/de/invitations/tok');
    forgetReturnPath();
    expect(peekReturnPath(null)).toBeNull();
  });

  it('ignores unsafe or day-old remembered paths', () => {
    rememberReturnPath('https://evil.example');
    expect(peekReturnPath(null)).toBeNull();
    localStorage.setItem('teamwerk.returnPath', JSON.stringify({ path: '/invitations/old', at: Date.now() - 25 * 3600_000 }));
    expect(peekReturnPath(null)).toBeNull();
  });
});
