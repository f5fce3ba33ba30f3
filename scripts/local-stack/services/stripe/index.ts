/** STUB: replaced by the real Stripe sandbox on ports.stripe. */
import type { StackContext, BackgroundService } from '../../types.ts';

export async function createStripeSandbox(_ctx: StackContext): Promise<BackgroundService> {
  return { async close() {} };
}
