import { ApiError, type SupabaseResult } from '@/lib/api-error';
import { ERROR_IDS } from './message-ids';

/**
 * Error of a matching call: ApiError plus the database's `hint` (PT429 weekly_match_limit: the
 * ISO timestamp when the Basic allowance renews).
 */
export class MatchingError extends ApiError {
  readonly hint?: string;
  constructor(message: string, status: number, code?: string, hint?: string) {
    super(message, status, 'POST', code);
    this.hint = hint;
  }
}

/**
 * Like unwrap, but keeps the error's hint (MatchingError); for the engine's RPCs.
 * @throws MatchingError when the call failed (status, code and hint of the database's answer)
 */
export function unwrapRpc<T>(result: SupabaseResult<T> & { error: { message: string; code?: string; hint?: string } | null }): T {
  if (result.error) throw new MatchingError(result.error.message || 'Request failed', result.status ?? 0, result.error.code, result.error.hint ?? undefined);
  return result.data as T;
}

/**
 * Message id for a matching error (the database's message names the rule, issue 19):
 * match_profile_missing, weekly_match_limit, premium_required, enterprise_required, unknown_city,
 * unknown_skill, open_role_limit, …; anything else → matching.error.generic.
 */
export function matchingErrorId(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  return ERROR_IDS[message] ?? 'matching.error.generic';
}
