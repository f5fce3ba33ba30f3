/** STUB: replaced by the pg_cron scheduler and pg_net worker. */
import type { StackContext, BackgroundService } from '../../types.ts';

export async function createCronWorker(_ctx: StackContext): Promise<BackgroundService> {
  return { async close() {} };
}
