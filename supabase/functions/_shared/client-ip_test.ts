/**
 * One client-IP rule for SQL and TypeScript (issue 29 §3): `clientIpKey` (client-ip.ts) and
 * `private.client_ip(headers)` (the database) give the same key for every case, and a rotated or
 * forged header never changes it.
 */
import { assertEquals } from './assert.ts';
import { withDb } from './testing.ts';
import { clientAddress, clientIpKey } from './client-ip.ts';

/** Header cases: [headers, expected key]. */
const CASES: [Record<string, string>, string][] = [
  [{ 'cf-connecting-ip': '203.0.113.7' }, '203.0.113.7'],
  [{ 'cf-connecting-ip': '203.0.113.7', 'x-forwarded-for': '198.51.100.1, 10.0.0.1' }, '203.0.113.7'],
  [{ 'x-forwarded-for': '198.51.100.1' }, '198.51.100.1'],
  // a client prepends whatever it likes; the last entry is the one the proxy appended
  [{ 'x-forwarded-for': '1.2.3.4, 5.6.7.8, 198.51.100.9' }, '198.51.100.9'],
  [{ 'x-forwarded-for': '198.51.100.9, not-an-ip' }, '198.51.100.9'],
  [{ 'x-forwarded-for': ' 198.51.100.9 ,  ' }, '198.51.100.9'],
  [{ 'cf-connecting-ip': 'garbage', 'x-forwarded-for': '198.51.100.4' }, '198.51.100.4'],
  [{ 'cf-connecting-ip': '2001:db8:1:2:3:4:5:6' }, '2001:db8:1:2::/64'],
  [{ 'cf-connecting-ip': '2001:0db8:0000:0000:0000:0000:0000:0001' }, '2001:db8::/64'],
  [{ 'cf-connecting-ip': '[2001:db8:0:1::5]' }, '2001:db8:0:1::/64'],
  [{ 'cf-connecting-ip': '::ffff:192.0.2.33' }, '192.0.2.33'],
  [{ 'cf-connecting-ip': 'fe80::1%eth0', 'x-forwarded-for': '192.0.2.1' }, '192.0.2.1'],
  [{ 'x-forwarded-for': '256.1.1.1' }, 'unknown'],
  [{ 'x-forwarded-for': '10.1' }, 'unknown'],
  [{ 'x-forwarded-for': '10.0.0.0/8' }, 'unknown'],
  [{ 'x-real-ip': '192.0.2.50' }, 'unknown'],
  [{}, 'unknown'],
];

Deno.test('client IP: the TypeScript rule gives the expected key for every case', () => {
  for (const [headers, expected] of CASES) assertEquals(clientIpKey(new Headers(headers)), expected, JSON.stringify(headers));
  assertEquals(clientAddress(new Headers({ 'cf-connecting-ip': '2001:db8::5' })), '2001:db8::5');
  assertEquals(clientAddress(new Headers({ 'x-forwarded-for': 'x, 192.0.2.8' })), '192.0.2.8');
});

Deno.test({
  name: 'client IP: private.client_ip in the database gives the same key for every case',
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withDb(async (db) => {
      for (const [headers, expected] of CASES) {
        const { rows } = await db.query('select private.client_ip($1::jsonb) as key', [JSON.stringify(headers)]);
        assertEquals(rows[0].key, expected, JSON.stringify(headers));
        assertEquals(rows[0].key, clientIpKey(headers), `TS = SQL for ${JSON.stringify(headers)}`);
      }
    });
  },
});
