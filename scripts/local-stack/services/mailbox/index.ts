/** STUB: replaced by the real mailbox (Resend API + web page + JSON API on ports.mailbox). */
import type { StackContext, BackgroundService, Mailer } from '../../types.ts';

export async function createMailbox(_ctx: Omit<StackContext, 'mailer'>): Promise<BackgroundService & Mailer> {
  return {
    async deliver() {
      return { id: 'stub' };
    },
    async close() {},
  };
}
