/**
 * Stripe's test cards (https://stripe.com/docs/testing) and what the sandbox does with them.
 *
 * - 4242 4242 4242 4242 (and any other Luhn-valid number not listed): every charge succeeds.
 * - 4000 0000 0000 0002: declined (`card_declined`, `generic_decline`), nothing is attached.
 * - 4000 0000 0000 9995: declined, `insufficient_funds`.
 * - 4000 0000 0000 0069: `expired_card`; 4000 0000 0000 0127: `incorrect_cvc`.
 * - 4000 0000 0000 0341: attaches and pays the first invoice of the subscription created by
 *   checkout, then every later charge (renewals, retries, plan changes that bill) fails with
 *   `card_declined`. (Real Stripe already fails the first charge of this card; the sandbox lets it
 *   through once so renewal failure can be tested after a successful checkout.)
 */

export type CardBehavior = 'succeed' | 'decline' | 'insufficient_funds' | 'expired_card' | 'incorrect_cvc' | 'fail_after_attach';

export interface CardFailure {
  code: string;
  decline_code?: string;
  message: { en: string; de: string };
}

const SPECIAL: Record<string, CardBehavior> = {
  '4000000000000002': 'decline',
  '4000000000009995': 'insufficient_funds',
  '4000000000000069': 'expired_card',
  '4000000000000127': 'incorrect_cvc',
  '4000000000000341': 'fail_after_attach',
};

/** Magic payment method ids Stripe accepts in test mode, mapped to their card numbers. */
export const TEST_PAYMENT_METHODS: Record<string, string> = {
  pm_card_visa: '4242424242424242',
  pm_card_mastercard: '5555555555554444',
  pm_card_chargeDeclined: '4000000000000002',
  pm_card_chargeDeclinedInsufficientFunds: '4000000000009995',
  pm_card_chargeCustomerFail: '4000000000000341',
};

export const FAILURES: Record<Exclude<CardBehavior, 'succeed'>, CardFailure> = {
  decline: {
    code: 'card_declined',
    decline_code: 'generic_decline',
    message: { en: 'Your card was declined.', de: 'Ihre Karte wurde abgelehnt.' },
  },
  fail_after_attach: {
    code: 'card_declined',
    decline_code: 'generic_decline',
    message: { en: 'Your card was declined.', de: 'Ihre Karte wurde abgelehnt.' },
  },
  insufficient_funds: {
    code: 'card_declined',
    decline_code: 'insufficient_funds',
    message: { en: 'Your card has insufficient funds.', de: 'Ihre Karte ist nicht ausreichend gedeckt.' },
  },
  expired_card: {
    code: 'expired_card',
    message: { en: 'Your card has expired.', de: 'Ihre Karte ist abgelaufen.' },
  },
  incorrect_cvc: {
    code: 'incorrect_cvc',
    message: { en: "Your card's security code is incorrect.", de: 'Der Sicherheitscode Ihrer Karte ist falsch.' },
  },
};

/** Input problems found before any charge (localized). */
export const INPUT_ERRORS = {
  incorrect_number: { en: 'Your card number is incorrect.', de: 'Ihre Kartennummer ist ungültig.' },
  invalid_expiry: { en: "Your card's expiration date is incomplete.", de: 'Das Ablaufdatum Ihrer Karte ist unvollständig.' },
  expiry_past: { en: "Your card's expiration date is in the past.", de: 'Das Ablaufdatum Ihrer Karte liegt in der Vergangenheit.' },
  invalid_cvc: { en: "Your card's security code is incomplete.", de: 'Der Sicherheitscode Ihrer Karte ist unvollständig.' },
  missing_name: { en: 'Please enter the name on the card.', de: 'Bitte geben Sie den Namen auf der Karte ein.' },
  invalid_email: { en: 'Please enter a valid email address.', de: 'Bitte geben Sie eine gültige E-Mail-Adresse ein.' },
} as const;

/** Luhn checksum of a digit string. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Card brand by number prefix (Stripe's brand names). */
export function cardBrand(digits: string): string {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^6(011|5)/.test(digits)) return 'discover';
  return 'unknown';
}

/** The sandbox behaviour of a (Luhn-valid) card number. */
export function cardBehavior(digits: string): CardBehavior {
  return SPECIAL[digits] ?? 'succeed';
}

export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

/**
 * Parses the hosted form's card fields. Input: raw strings (number with spaces, expiry `MM/YY` or
 * `MM / YYYY`, CVC). Output: normalized card or the key of an INPUT_ERRORS message.
 * `now` (unix seconds) decides whether the expiry lies in the past.
 */
export function parseCardInput(
  number: string,
  expiry: string,
  cvc: string,
  now: number,
): { ok: true; card: CardInput } | { ok: false; error: keyof typeof INPUT_ERRORS } {
  const digits = number.replace(/[\s-]/g, '');
  if (!luhnValid(digits)) return { ok: false, error: 'incorrect_number' };
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(expiry);
  if (!m) return { ok: false, error: 'invalid_expiry' };
  const expMonth = Number(m[1]);
  let expYear = Number(m[2]);
  if (expYear < 100) expYear += 2000;
  if (expMonth < 1 || expMonth > 12) return { ok: false, error: 'invalid_expiry' };
  const d = new Date(now * 1000);
  const cy = d.getUTCFullYear();
  const cm = d.getUTCMonth() + 1;
  if (expYear < cy || (expYear === cy && expMonth < cm)) return { ok: false, error: 'expiry_past' };
  const c = cvc.trim();
  if (!/^\d{3,4}$/.test(c)) return { ok: false, error: 'invalid_cvc' };
  return { ok: true, card: { number: digits, expMonth, expYear, cvc: c } };
}
