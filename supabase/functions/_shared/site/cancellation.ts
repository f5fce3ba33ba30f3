/**
 * The §312k BGB cancellation form ("Verträge hier kündigen"): the field limits the SPA's form and
 * the cancel-contract function's body check both use (the database's cancellation_requests checks
 * hold the same numbers), and the calendar day the requested date is compared with.
 */

/** Maximum lengths in characters: name (at least 1), e-mail, contract reference, reason. */
export const CANCELLATION_LIMITS = { name: 200, email: 320, contract: 200, reason: 2000 } as const;

/**
 * Today's date in Germany as YYYY-MM-DD (the form's dates are German calendar days).
 * @param nowMs the current time in milliseconds since the epoch
 */
export function berlinToday(nowMs: number = Date.now()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(nowMs));
}
