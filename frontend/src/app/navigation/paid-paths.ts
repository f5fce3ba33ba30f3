import { ROUTES } from '../routes';
import { compilePattern, matchPattern } from './pattern';

/**
 * Whether the route of `path` (plain, without locale prefix) carries the payment-required guard
 * (spec §6), read from the route table, so menus offer free members only what they can open
 * (issue 32 §5). Unknown paths count as open.
 */
export function requiresPaidPlan(path: string): boolean {
  const plain = path.split(/[?#]/)[0]!;
  for (const route of ROUTES) {
    if (matchPattern(compilePattern(route.pattern), plain)) return (route.guards ?? []).includes('payment-required');
  }
  return false;
}
