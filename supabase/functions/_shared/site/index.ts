/**
 * The rules the SPA, the Edge Functions and the build share, written once: plain TypeScript
 * without Deno or DOM APIs and with relative `.ts` imports, so that `supabase functions deploy`
 * bundles it with the functions, Deno type-checks it, and Vite and vitest read it through the
 * SPA's `@site` alias.
 */
export { buildIcs, escapeIcsText, foldIcsLine, type IcsEvent, icsUtc } from './ics.ts';
