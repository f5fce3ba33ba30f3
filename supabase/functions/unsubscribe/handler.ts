/**
 * `unsubscribe` (public, verify_jwt = false; issue 13 "an unsubscribe link"; RFC 8058 one-click).
 *
 * POST `{ token }` (the SPA's /unsubscribe page) or POST `?token=` with any body (a mail client's
 * List-Unsubscribe-Post `List-Unsubscribe=One-Click`). The token names the queued mail it came
 * with (see _shared/email/unsubscribe.ts); the mail's kind decides which switch of the
 * recipient's user_settings goes off (contact_request → email_contact_requests, chat_unread →
 * email_messages). GET is refused, so link scanners never unsubscribe anyone.
 * → 200 `{ unsubscribed: true, kind: 'contact_requests' | 'messages' | 'event_updates' | 'match_digest' }` (repeating is harmless).
 * Errors: 400 `token_invalid` (malformed, forged, unknown mail or not an unsubscribable kind);
 * 400 `validation_failed`; 405 `method_not_allowed`; 429 `rate_limited` (60 a network address
 * and hour); 500 `internal_error`.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import { HttpError, json, readBody, withErrors } from '../_shared/http.ts';
import { clientIpKey } from '../_shared/client-ip.ts';
import { UNSUBSCRIBE_KINDS, UNSUBSCRIBE_NAMES, verifyUnsubscribeToken } from '../_shared/email/unsubscribe.ts';

/** Dependencies of `unsubscribe`. */
export interface UnsubscribeDeps {
  /** Service-role client (email_queue, user_settings, the rate limit). */
  admin: SupabaseClient;
  /** TOKEN_SECRET (≥ 32 characters). */
  secret: string;
}

/** Unsubscribe requests per network address and hour. */
export const UNSUBSCRIBES_PER_IP_AND_HOUR = 60;

const Body = z.object({ token: z.string().min(1).max(200) });
const INVALID = new HttpError(400, 'token_invalid', 'This unsubscribe link is invalid.');

/** Builds the request handler of `unsubscribe` over its dependencies. */
export function createUnsubscribeHandler(deps: UnsubscribeDeps): (req: Request) => Promise<Response> {
  return withErrors('unsubscribe', async (req) => {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST');
    const fromQuery = new URL(req.url).searchParams.get('token');
    let token: string;
    if (fromQuery) {
      token = fromQuery;
      await req.body?.cancel();
    } else {
      token = (await readBody(req, Body)).token;
    }

    const limited = await deps.admin.rpc('enforce_public_rate_limit', {
      p_bucket: 'unsubscribe:ip', p_key: clientIpKey(req.headers), p_limit: UNSUBSCRIBES_PER_IP_AND_HOUR, p_window_seconds: 3600,
    });
    if (limited.error?.code === 'PT429') throw new HttpError(429, 'rate_limited', 'Too many requests from this network address; please try again later.');
    if (limited.error) throw new Error(`enforce_public_rate_limit: ${limited.error.message}`);

    const mailId = await verifyUnsubscribeToken(token, deps.secret);
    if (mailId === null) throw INVALID;
    const { data: mail, error } = await deps.admin.from('email_queue').select('user_id, email_type').eq('id', mailId).maybeSingle();
    if (error) throw new Error(`email_queue: ${error.message}`);
    const column = mail ? UNSUBSCRIBE_KINDS[mail.email_type as string] : undefined;
    if (!mail?.user_id || !column) throw INVALID;

    const saved = await deps.admin.from('user_settings').upsert({ user_id: mail.user_id, [column]: false }, { onConflict: 'user_id' });
    if (saved.error) throw new Error(`user_settings: ${saved.error.message}`);
    return json({ unsubscribed: true, kind: UNSUBSCRIBE_NAMES[column] });
  });
}
