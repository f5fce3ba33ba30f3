/** The billing functions use the shared Edge Function caller (src/lib/invoke-function.ts). */
export { FunctionCallError as BillingFunctionError, invokeFunction as invokeBillingFunction } from '@/lib/invoke-function';
