/** STUB: replaced by the real realtime service. */
import type { StackContext, HttpService } from '../../types.ts';
import { sendJson } from '../../http.ts';

export async function createRealtimeService(_ctx: StackContext): Promise<HttpService> {
  return {
    handle(_req, res) {
      sendJson(res, 501, { message: 'realtime not implemented yet' });
    },
    async close() {},
  };
}
