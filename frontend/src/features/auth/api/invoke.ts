/** The accounts functions use the shared Edge Function caller (src/lib/invoke-function.ts). */
export { FunctionCallError, invokeFunction } from '@/lib/invoke-function';
