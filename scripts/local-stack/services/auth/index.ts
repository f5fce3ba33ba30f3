/** STUB: replaced by the real auth service. */
import type { StackContext, HttpService } from '../../types.ts';
import { sendJson } from '../../http.ts';

export async function createAuthService(_ctx: StackContext): Promise<HttpService> {
  return {
    handle(_req, res) {
      sendJson(res, 501, { message: 'auth not implemented yet' });
    },
    async close() {},
  };
}
