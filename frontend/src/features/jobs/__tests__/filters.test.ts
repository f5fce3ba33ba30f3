import { describe, expect, it } from 'vitest';
import { parseJobFilters, toJobSearch } from '../api/get-jobs';

describe('/jobs URL filters', () => {
  it('round-trips and drops unknown employment types', () => {
    const f = parseJobFilters(new URLSearchParams('remote=remote&city=Berlin&type=working_student&category=technology&page=2'));
    expect(f).toEqual({ remote: 'remote', city: 'Berlin', type: 'working_student', category: 'technology', page: 2 });
    expect(toJobSearch(f).toString()).toBe('remote=remote&city=Berlin&type=working_student&category=technology&page=2');
    expect(parseJobFilters(new URLSearchParams('remote=maybe&type=boss'))).toMatchObject({ remote: '', type: '' });
  });
});
