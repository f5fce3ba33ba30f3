/** Billing functions answer like every Edge Function: `{ error: { code, message } }` (scripts/stripe/README.md). */
export { FunctionCallError as BillingFunctionError } from '@/lib/function-call-error';
