/**
 * `health` Edge Function: reports that the functions runtime is up (`{ status: 'ok' }`).
 * Wiring only; the handler lives in handler.ts.
 */
import { handleHealth } from './handler.ts';

Deno.serve((request: Request) => handleHealth(request));
