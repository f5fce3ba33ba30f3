/** STUB: replaced by the real storage service. */
import type { StackContext, HttpService } from '../../types.ts';
import { sendJson } from '../../http.ts';

export async function createStorageService(_ctx: StackContext): Promise<HttpService> {
  return {
    handle(_req, res) {
      sendJson(res, 501, { message: 'storage not implemented yet' });
    },
    async close() {},
  };
}
