/** Deno tests of the `health` handler (run with `deno test supabase/functions`). */
import assert from 'node:assert/strict';
import { handleHealth } from './handler.ts';

Deno.test('health answers ok with the injected time', async () => {
  const response = handleHealth(new Request('http://localhost/health'), { now: () => new Date('2026-01-02T03:04:05Z') });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'application/json');
  assert.deepEqual(await response.json(), { status: 'ok', function: 'health', time: '2026-01-02T03:04:05.000Z' });
});

Deno.test('health answers a CORS preflight without a body', async () => {
  const response = handleHealth(new Request('http://localhost/health', { method: 'OPTIONS' }));
  assert.equal(response.status, 204);
  assert.equal(response.headers.get('access-control-allow-origin'), '*');
  assert.equal(await response.text(), '');
});
