import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-error';
import { normaliseProjectId } from '../api/favourite-project';
import { EMPTY_PROJECT, projectSchema, toColumns } from '../api/project-schema';
import { isPlanLimitError } from '../api/save-project';

describe('normaliseProjectId (spec §5: numeric ids, zero dropped)', () => {
  it('keeps positive integers given as number or digits', () => {
    expect(normaliseProjectId(12)).toBe(12);
    expect(normaliseProjectId(' 7 ')).toBe(7);
  });
  it('drops zero, negatives, fractions, non-numeric and oversized ids', () => {
    for (const raw of [0, '0', '00', -3, '-3', 1.5, '1.5', 'abc', '12a', '', null, undefined, {}, '99999999999999999999']) {
      expect(normaliseProjectId(raw), String(raw)).toBeNull();
    }
  });
});

describe('isPlanLimitError', () => {
  it('recognises the trigger error only', () => {
    expect(isPlanLimitError(new ApiError('plan_limit_reached', 400, 'POST', 'P0001'))).toBe(true);
    expect(isPlanLimitError(new ApiError('other', 400, 'POST', 'P0001'))).toBe(false);
    expect(isPlanLimitError(new Error('plan_limit_reached'))).toBe(false);
  });
});

describe('projectSchema (the limits of the public.projects checks)', () => {
  const valid = { ...EMPTY_PROJECT, title: 'Solar bikes', category: 'technology' as const };
  it('accepts a minimal project', () => {
    expect(projectSchema.safeParse(valid).success).toBe(true);
  });
  it('needs a category for a normal and a private category for a private project', () => {
    const r1 = projectSchema.safeParse({ ...valid, category: null });
    expect(r1.success).toBe(false);
    const r2 = projectSchema.safeParse({ ...valid, isPrivate: true });
    expect(r2.error?.issues.map((i) => i.message)).toEqual(['projects.error.privateCategory']);
  });
  it('refuses short titles, long summaries, non-https images', () => {
    expect(projectSchema.safeParse({ ...valid, title: 'ab' }).success).toBe(false);
    expect(projectSchema.safeParse({ ...valid, summary: 'x'.repeat(501) }).success).toBe(false);
    expect(projectSchema.safeParse({ ...valid, images: ['javascript:alert(1)'] }).success).toBe(false);
  });
  it('toColumns writes exactly one of category / private_category', () => {
    const cols = toColumns({ ...valid, isPrivate: true, privateCategory: 'creative', city: '  ' });
    expect(cols.category).toBeNull();
    expect(cols.private_category).toBe('creative');
    expect(cols.city).toBeNull();
  });
});
