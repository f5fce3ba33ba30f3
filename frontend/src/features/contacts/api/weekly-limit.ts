import type { IntlShape } from 'react-intl';
import { ApiError } from '@/lib/api-error';

/**
 * The weekly contact-request allowance's refusal (issue 19: Basic 10, Premium 30, Enterprise 100
 * per ISO week in Europe/Berlin, renewing Monday 00:00 Berlin): the error type of
 * sendContactRequest that keeps the database hint, reading the hint, and the renewal day as text.
 * No backend import, so it is unit-testable.
 */

/** Error of sendContactRequest; `hint` carries the database hint (the weekly limit's JSON, issue 19). */
export class ContactRequestError extends ApiError {
  readonly hint?: string;

  constructor(message: string, status: number, code?: string, hint?: string) {
    super(message || 'Request failed', status, 'POST', code);
    this.name = 'ContactRequestError';
    this.hint = hint;
  }
}

/** The allowance is used up (issue 19): its size and when it renews (ISO instant, Monday 00:00 Berlin). */
export interface WeeklyLimitReached {
  limit: number;
  renewsAt: string;
}

/**
 * The weekly-limit refusal in an error of sendContactRequest, or null for any other error. The
 * database sends PT429 `weekly_contact_request_limit` with hint JSON {plan, limit, used, renews_at, renews_on}.
 */
export function weeklyLimitOf(error: unknown): WeeklyLimitReached | null {
  if (!(error instanceof ContactRequestError) || error.message !== 'weekly_contact_request_limit' || !error.hint) return null;
  try {
    const hint = JSON.parse(error.hint) as { limit?: unknown; renews_at?: unknown };
    if (typeof hint.limit !== 'number' || typeof hint.renews_at !== 'string' || Number.isNaN(Date.parse(hint.renews_at))) return null;
    return { limit: hint.limit, renewsAt: hint.renews_at };
  } catch {
    return null;
  }
}

/**
 * The renewal day of the allowance in the page locale, e.g. "Monday, 30 November 2026" /
 * "Montag, 30. November 2026". The week is the ISO week in Europe/Berlin, so the day is Berlin's.
 */
export function formatRenewal(intl: IntlShape, renewsAt: string): string {
  return intl.formatDate(renewsAt, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Berlin' });
}
