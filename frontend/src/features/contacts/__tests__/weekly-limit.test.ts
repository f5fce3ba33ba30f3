import { createIntl } from 'react-intl';
import { describe, expect, test } from 'vitest';
import { ApiError } from '@/lib/api-error';
import { ContactRequestError, formatRenewal, weeklyLimitOf } from '../api/weekly-limit';

describe('weekly contact-request limit (issue 19)', () => {
  const hint = JSON.stringify({ plan: 'basic', limit: 10, used: 10, renews_at: '2026-11-29T23:00:00Z', renews_on: '2026-11-30' });

  test('the refusal yields its size and renewal instant; other errors and broken hints yield null', () => {
    expect(weeklyLimitOf(new ContactRequestError('weekly_contact_request_limit', 429, 'PT429', hint))).toEqual({ limit: 10, renewsAt: '2026-11-29T23:00:00Z' });
    expect(weeklyLimitOf(new ContactRequestError('contact_request_limit', 429, 'PT429'))).toBeNull();
    expect(weeklyLimitOf(new ContactRequestError('weekly_contact_request_limit', 429, 'PT429', 'not json'))).toBeNull();
    expect(weeklyLimitOf(new ContactRequestError('weekly_contact_request_limit', 429, 'PT429', '{"limit":"10"}'))).toBeNull();
    expect(weeklyLimitOf(new ApiError('weekly_contact_request_limit', 429, 'POST', 'PT429'))).toBeNull();
  });

  test('the renewal day is the Berlin date of Monday 00:00, in the page language', () => {
    // 23:00 UTC on Sunday is already Monday in Berlin
    expect(formatRenewal(createIntl({ locale: 'en' }), '2026-11-29T23:00:00Z')).toBe('Monday, November 30, 2026');
    expect(formatRenewal(createIntl({ locale: 'de' }), '2026-11-29T23:00:00Z')).toBe('Montag, 30. November 2026');
  });
});
