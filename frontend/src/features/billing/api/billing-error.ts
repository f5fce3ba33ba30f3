/** Error answer of a billing Edge Function: HTTP status plus `{ error: { code, message } }` (scripts/stripe/README.md). */
export class BillingFunctionError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'BillingFunctionError';
    this.status = status;
    this.code = code;
  }

  /** 5xx answers and lost connections may succeed on a second try (verify-payment: 503 stripe_unavailable/sync_failed). */
  get retryable(): boolean {
    return this.status === 0 || this.status >= 500;
  }
}
