/** STUB: replaced by the real functions service. */
import type { StackContext, HttpService } from '../../types.ts';
import { sendJson } from '../../http.ts';

export async function createFunctionsRunner(_ctx: StackContext): Promise<HttpService> {
  return {
    handle(_req, res) {
      sendJson(res, 501, { message: 'functions not implemented yet' });
    },
    async close() {},
  };
}
