/**
 * Stripe's error object (https://stripe.com/docs/api/errors): `{ error: { type, code, message,
 * param, doc_url, decline_code } }` with the matching HTTP status.
 */

export type StripeErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'card_error'
  | 'idempotency_error'
  | 'api_error';

export class StripeError extends Error {
  constructor(
    public status: number,
    public type: StripeErrorType,
    message: string,
    public extra: { code?: string; param?: string; decline_code?: string; doc_url?: string } = {},
    /** True for parameter validation errors: their results are not stored for idempotency. */
    public validation = false,
  ) {
    super(message);
  }

  /** The JSON body Stripe answers with. */
  toJSON(): { error: Record<string, unknown> } {
    const error: Record<string, unknown> = { type: this.type, message: this.message };
    if (this.extra.code) {
      error.code = this.extra.code;
      error.doc_url = this.extra.doc_url ?? `https://stripe.com/docs/error-codes/${this.extra.code.replace(/_/g, '-')}`;
    }
    if (this.extra.param !== undefined) error.param = this.extra.param;
    if (this.extra.decline_code) error.decline_code = this.extra.decline_code;
    return { error };
  }
}

/** 400 invalid_request_error raised while validating parameters (never stored for idempotency). */
export function paramError(message: string, param?: string, code = 'parameter_unknown'): StripeError {
  return new StripeError(400, 'invalid_request_error', message, { code, param }, true);
}

/** 400 invalid_request_error raised by the business rules of an endpoint. */
export function invalidRequest(message: string, param?: string, code?: string): StripeError {
  return new StripeError(400, 'invalid_request_error', message, { code, param });
}

/**
 * 400 for a real Stripe parameter the sandbox does not implement (a validation error, never
 * stored for idempotency). Input: the parameter's display name, e.g. `line_items[0][tax_rates]`.
 */
export function unsupportedParam(name: string): StripeError {
  return new StripeError(
    400,
    'invalid_request_error',
    `Received unsupported parameter: ${name} (a real Stripe parameter the local Stripe sandbox does not implement).`,
    { code: 'parameter_unknown', param: name },
    true,
  );
}

/** 404 resource_missing, e.g. "No such customer: 'cus_x'" (param names the id's parameter). */
export function noSuch(kind: string, id: string, param = 'id'): StripeError {
  return new StripeError(404, 'invalid_request_error', `No such ${kind}: '${id}'`, { code: 'resource_missing', param });
}

/** 404 for any path/method the sandbox does not implement (Stripe's exact wording). */
export function unrecognizedUrl(method: string, path: string): StripeError {
  return new StripeError(
    404,
    'invalid_request_error',
    `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
  );
}
