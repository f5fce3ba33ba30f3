import { CONSENT_COOKIE } from './constants';
import { readCookie, writeCookie } from './cookies';

/** Cookie categories. Only `necessary` is active without consent (TDDDG §25 Abs. 2 Nr. 2). */
export interface ConsentChoice {
  necessary: true;
  statistics: boolean;
  marketing: boolean;
  /** ISO time of the choice, kept as proof of consent. */
  decidedAt: string;
}

/** How long the choice is remembered: 365 days, in seconds. */
export const CONSENT_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** The stored choice, or null when the visitor has not decided yet (or the cookie is unreadable). */
export function readConsent(cookieString?: string): ConsentChoice | null {
  const raw = readCookie(CONSENT_COOKIE, cookieString);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<ConsentChoice>;
    return {
      necessary: true,
      statistics: parsed.statistics === true,
      marketing: parsed.marketing === true,
      decidedAt: typeof parsed.decidedAt === 'string' ? parsed.decidedAt : '',
    };
  } catch {
    return null;
  }
}

/** Window event fired after the visitor stored a choice (analytics counts the open page once statistics are allowed, issue 15). */
export const CONSENT_CHANGE_EVENT = 'teamwerk:consent-change';

/** Stores the visitor's choice (the consent cookie itself is necessary: it records the decision) and fires CONSENT_CHANGE_EVENT. */
export function writeConsent(choice: Omit<ConsentChoice, 'necessary' | 'decidedAt'>): ConsentChoice {
  const full: ConsentChoice = { necessary: true, ...choice, decidedAt: new Date().toISOString() };
  writeCookie(CONSENT_COOKIE, JSON.stringify(full), CONSENT_MAX_AGE_SECONDS);
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(CONSENT_CHANGE_EVENT));
  return full;
}

/** True when a category may be used; `necessary` always, others only after consent. */
export function hasConsent(category: 'necessary' | 'statistics' | 'marketing'): boolean {
  if (category === 'necessary') return true;
  return readConsent()?.[category] === true;
}
