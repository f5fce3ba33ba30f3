import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import de from '@/i18n/de.json';
import en from '@/i18n/en.json';
import { Constants } from '@/lib/database.types';
import { matchProfileCompleteness } from '../api/completeness';
import type { MatchProfileRow } from '../api/match-profile';
import type { MatchReason } from '../api/matches';
import { describeFitReason, describeMatchReason, FIT_REASON_CODES, MATCH_REASON_CODES, reasonTone, type ReasonLabels } from '../api/reasons';
import { toFilters } from '../api/filters';

/** The engine's reason codes as the database declares them (enums public.match_reason_code and
 * public.fit_reason_code, through the generated types; supabase/tests/matching.test.ts checks that the
 * engine answers no other code). */
const DATABASE_MATCH_CODES: readonly string[] = Constants.public.Enums.match_reason_code;
const DATABASE_FIT_CODES: readonly string[] = Constants.public.Enums.fit_reason_code;

const labels: ReasonLabels = {
  role: (k) => `role:${k}`,
  skill: (k) => `skill:${k}`,
  kind: (k) => `kind:${k}`,
  industry: (k) => `industry:${k}`,
  stage: (k) => `stage:${k}`,
  commitment: (k) => `commitment:${k}`,
  language: (c) => `lang:${c}`,
  list: (items) => items.join(' + '),
  date: (iso) => `date:${iso}`,
};

const reason = (code: string, extra: Partial<MatchReason> = {}): MatchReason => ({ code, criterion: 'x', points: 1, max: 1, must: false, ...extra });

describe('reasons (issue 19: rendered from reason codes in both languages)', () => {
  it('covers every reason code the database declares', () => {
    expect(DATABASE_MATCH_CODES.filter((c) => !(MATCH_REASON_CODES as readonly string[]).includes(c))).toEqual([]);
    expect(DATABASE_FIT_CODES.filter((c) => !(FIT_REASON_CODES as readonly string[]).includes(c))).toEqual([]);
    expect(DATABASE_MATCH_CODES.length).toBeGreaterThan(15);
  });

  it('every code formats in English and German for both sides with the values it gets', () => {
    const sample = {
      role: 'technical',
      roles: ['technical', 'design'],
      skills: ['react'],
      missing: ['python'],
      city: 'Köln',
      km: 12,
      radius_km: 50,
      kind: 'mentor',
      sought: ['health'],
      industries: ['health'],
      industry: 'health',
      commitment: 'part_time',
      mine: 'part_time',
      theirs: 'later',
      theirs_from: '2027-01-01',
      stage: 'idea',
      languages: ['de'],
      person: 'full_time',
    };
    for (const [catalogue, locale] of [
      [en, 'en'],
      [de, 'de'],
    ] as const) {
      const messages = catalogue as Record<string, string>;
      for (const code of MATCH_REASON_CODES) {
        for (const side of ['you', 'they'] as const) {
          const text = describeMatchReason(reason(code, { side, ...sample }), labels);
          expect(text.id, code).not.toBe('matching.reason.unknown');
          expect(messages[text.id], text.id).toBeDefined();
          const out = new IntlMessageFormat(messages[text.id]!, locale).format(text.values) as string;
          expect(out, `${locale} ${text.id}`).not.toMatch(/[{}]/);
        }
      }
      for (const code of FIT_REASON_CODES) {
        const text = describeFitReason(reason(code, sample), labels);
        expect(messages[text.id], text.id).toBeDefined();
        expect(new IntlMessageFormat(messages[text.id]!, locale).format(text.values) as string).not.toMatch(/[{}]/);
      }
    }
  });

  it('puts the localised skills and roles into the text', () => {
    const text = describeMatchReason(reason('offers_sought_role', { side: 'you', roles: ['technical'], skills: ['backend', 'react'] }), labels);
    const out = new IntlMessageFormat(en[text.id as keyof typeof en], 'en').format(text.values) as string;
    expect(out).toContain('role:technical');
    expect(out).toContain('skill:backend + skill:react');
    const none = describeMatchReason(reason('offers_sought_role', { side: 'you', roles: ['technical'], skills: [] }), labels);
    expect(new IntlMessageFormat(en[none.id as keyof typeof en], 'en').format(none.values)).toBe('Offers role:technical, which you seek');
    const they = describeMatchReason(reason('has_sought_skills', { side: 'they', skills: ['react'], missing: [] }), labels);
    expect(they.id).not.toBe(describeMatchReason(reason('has_sought_skills', { side: 'you', skills: ['react'], missing: [] }), labels).id);
  });

  it('unknown codes fall back to a generic text', () => {
    expect(describeMatchReason(reason('brand_new_code', { side: 'you' }), labels).id).toBe('matching.reason.unknown');
    expect(describeFitReason(reason('brand_new_code'), labels).id).toBe('matching.reason.unknown');
  });

  it('tone follows points against max', () => {
    expect(reasonTone(reason('a', { points: 20, max: 20 }))).toBe('good');
    expect(reasonTone(reason('a', { points: 2.5, max: 5 }))).toBe('partial');
    expect(reasonTone(reason('a', { points: 0, max: 15 }))).toBe('bad');
    expect(reasonTone(reason('open_to_all', { points: 0, max: 0 }))).toBe('neutral');
  });
});

const empty: MatchProfileRow = {
  id: 'x',
  is_primary: true,
  name: null,
  active: true,
  kind: null,
  kinds_sought: [],
  roles_offered: [],
  roles_sought: [],
  skills: [],
  skill_tags: [],
  skills_sought: [],
  industries: [],
  idea_stage: null,
  stages_sought: [],
  commitment: null,
  available_from: null,
  city: null,
  remote_ok: false,
  radius_km: 50,
  languages: [],
  ticket_min_eur: null,
  ticket_max_eur: null,
  must_have: [],
  weights: {},
  updated_at: '2026-01-01T00:00:00Z',
};

describe('matching profile completeness (issue 19 "next most useful field")', () => {
  it('an empty or missing profile is 0 % and asks for the roles first', () => {
    expect(matchProfileCompleteness(null)).toMatchObject({ percent: 0, next: 'roles_offered' });
    expect(matchProfileCompleteness(empty)).toMatchObject({ percent: 0, next: 'roles_offered' });
  });

  it('grows with each field and moves the next field on', () => {
    const a = matchProfileCompleteness({ ...empty, roles_offered: ['technical'] });
    const b = matchProfileCompleteness({ ...empty, roles_offered: ['technical'], roles_sought: ['business'] });
    expect(a.percent).toBeGreaterThan(0);
    expect(b.percent).toBeGreaterThan(a.percent);
    expect(a.next).toBe('roles_sought');
    expect(b.next).toBe('skills');
  });

  it('a full profile is 100 % with nothing next', () => {
    const full = matchProfileCompleteness({
      ...empty,
      kind: 'professional',
      kinds_sought: ['founder_with_idea'],
      roles_offered: ['technical'],
      roles_sought: ['business'],
      skills: ['react'],
      skills_sought: ['finance'],
      industries: ['health'],
      commitment: 'part_time',
      languages: ['de'],
      stages_sought: ['idea'],
    });
    expect(full).toEqual({ percent: 100, next: null, missing: [] });
  });
});

describe('match filters', () => {
  it('sends only what is set; radius only with a city', () => {
    const base = { kinds: [], roles: [], skills: [], industries: [], commitment: [], languages: [], remote: false, city: '', radius_km: 30, min_score: '' };
    expect(toFilters(base)).toEqual({});
    expect(toFilters({ ...base, roles: ['design'], city: ' Köln ', min_score: 60 })).toEqual({ roles: ['design'], city: 'Köln', radius_km: 30, min_score: 60 });
  });
});
