/** Error answer of an Edge Function: HTTP status plus its `{ error: { code, message } }` body. */
export class FunctionCallError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'FunctionCallError';
    this.status = status;
    this.code = code;
  }

  /** 5xx answers and lost connections may succeed on a second try (e.g. verify-payment 503 stripe_unavailable). */
  get retryable(): boolean {
    return this.status === 0 || this.status >= 500;
  }
}
