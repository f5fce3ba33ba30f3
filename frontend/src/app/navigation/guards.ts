import type { GuardName } from '@/lib/route-def';

/** Facts a guard may ask for; loaded lazily and at most once per navigation. */
export interface GuardContext {
  /** Plain path (without locale prefix) being entered. */
  path: string;
  /** Signed-in user id, or null when logged out. */
  userId: () => Promise<string | null>;
  /** Whether the signed-in user has an active paid subscription (spec §6 payment-required). */
  hasActiveSubscription: () => Promise<boolean>;
  /** Whether the signed-in user is an admin. */
  isAdmin: () => Promise<boolean>;
}

/** A guard returns null to let the navigation pass, or a plain internal path to redirect to. */
export type Guard = (ctx: GuardContext) => Promise<string | null>;

/** The registered guards (spec §6): `auth`, `payment-required`, `admin`. */
export const GUARDS: Readonly<Record<GuardName, Guard>> = {
  /** Signed-in users only; others go to /login (spec §2). */
  auth: async (ctx) => ((await ctx.userId()) ? null : '/login'),
  /** Active paid subscription; logged out → /login, otherwise → /subscription-required (spec §6). */
  'payment-required': async (ctx) => {
    if (!(await ctx.userId())) return '/login';
    return (await ctx.hasActiveSubscription()) ? null : '/subscription-required';
  },
  /** Admins only; others go to the admin login (spec §2, §6). */
  admin: async (ctx) => {
    if (!(await ctx.userId())) return '/admin/login';
    return (await ctx.isAdmin()) ? null : '/admin/login';
  },
};

/** Result of the guard pipeline. */
export type GuardOutcome = { kind: 'pass' } | { kind: 'redirect'; to: string } | { kind: 'unknown'; name: string };

/**
 * Runs the named guards in order and stops at the first redirect. A name that is not registered
 * stops the pipeline with `unknown` before any guard runs (spec §8 'Unknown route middleware').
 */
export async function runGuards(
  names: readonly string[],
  ctx: GuardContext,
  registry: Readonly<Record<string, Guard>> = GUARDS,
): Promise<GuardOutcome> {
  const unknown = names.find((name) => !Object.hasOwn(registry, name));
  if (unknown !== undefined) return { kind: 'unknown', name: unknown };
  for (const name of names) {
    const to = await registry[name]!(ctx);
    if (to) return { kind: 'redirect', to };
  }
  return { kind: 'pass' };
}
