/**
 * GoTrue's error responses.
 *
 * GoTrue (supabase/auth `internal/api/errors.go`) answers an API error in one of two shapes,
 * chosen by the request header `X-Supabase-Api-Version`:
 * - absent or before 2024-01-01: `{ code: <HTTP status>, error_code: "<code>", msg: "<text>" }`
 * - 2024-01-01 or later (what supabase-js v2 sends): `{ code: "<code>", message: "<text>" }`,
 *   and the response echoes `X-Supabase-Api-Version: 2024-01-01`.
 * Both carry the header `x-sb-error-code`. Weak passwords add `weak_password: { reasons }`.
 * OAuth-style errors (refresh grant without token) are `{ error, error_description }`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '../../http.ts';

export const API_VERSION_HEADER = 'x-supabase-api-version';
const API_VERSION_2024 = Date.parse('2024-01-01T00:00:00Z');

/** An error GoTrue would answer with `status` and `errorCode` (e.g. 400 `invalid_credentials`). */
export class AuthApiError extends Error {
  constructor(
    public status: number,
    public errorCode: string,
    message: string,
    public extra: Record<string, unknown> = {},
    /**
     * `noErrorCodeHeader`: GoTrue sets `x-sb-error-code` only for errors that carry their own code;
     * errors without one (hook refusals) answer `unknown` in the body and send no header.
     */
    public options: { noErrorCodeHeader?: boolean } = {},
  ) {
    super(message);
  }
}

/** An OAuth2-style error (`{ error, error_description }`), as GoTrue's OAuthError. */
export class OAuthStyleError extends Error {
  constructor(
    public status: number,
    public error: string,
    public description: string,
  ) {
    super(`${error}: ${description}`);
  }
}

/** Shorthands for GoTrue's common errors. */
export const badRequest = (code: string, msg: string) => new AuthApiError(400, code, msg);
export const validationFailed = (msg: string) => new AuthApiError(400, 'validation_failed', msg);
export const unprocessable = (code: string, msg: string) => new AuthApiError(422, code, msg);
export const forbidden = (code: string, msg: string) => new AuthApiError(403, code, msg);
export const notFound = (code: string, msg: string) => new AuthApiError(404, code, msg);
export const tooManyRequests = (code: string, msg: string) => new AuthApiError(429, code, msg);
export const internalError = (msg: string) => new AuthApiError(500, 'unexpected_failure', msg);

/** True when the request asks for the 2024-01-01 error shape. */
export function wantsApiVersion2024(req: IncomingMessage): boolean {
  const raw = req.headers[API_VERSION_HEADER];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const t = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(t) && t >= API_VERSION_2024;
}

/**
 * Writes `err` as GoTrue would (see module comment). Unknown errors become 500
 * `unexpected_failure` without leaking internals.
 */
export function sendAuthError(req: IncomingMessage, res: ServerResponse, err: unknown): void {
  const v2024 = wantsApiVersion2024(req);
  const headers: Record<string, string> = v2024 ? { 'X-Supabase-Api-Version': '2024-01-01' } : {};
  if (err instanceof OAuthStyleError) {
    sendJson(res, err.status, { error: err.error, error_description: err.description }, headers);
    return;
  }
  const e = err instanceof AuthApiError ? err : internalError('Internal Server Error');
  if (!e.options.noErrorCodeHeader) headers['x-sb-error-code'] = e.errorCode;
  // The rest of an oversized body is not read: make sure the client does not reuse the socket.
  if (e.status === 413) headers.connection = 'close';
  const body = v2024
    ? { code: e.errorCode, message: e.message, ...e.extra }
    : { code: e.status, error_code: e.errorCode, msg: e.message, ...e.extra };
  sendJson(res, e.status, body, headers);
}
