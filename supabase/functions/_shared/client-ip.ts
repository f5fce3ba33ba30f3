/**
 * The client's network address, one rule for the whole product (issue 29 §3). The same rule is
 * written in SQL as `private.client_ip(headers jsonb)` for PostgREST requests; the Deno test
 * `client-ip_test.ts` holds both to one table of cases.
 *
 * The rule, for the headers a request reaches Supabase's services with:
 * 1. `CF-Connecting-IP` when it holds an address: hosted Supabase sits behind Cloudflare, which
 *    sets this header to the connecting address and replaces any value the client sent
 *    (the local gateway does the same, scripts/local-stack/gateway.ts).
 * 2. Otherwise the LAST `X-Forwarded-For` entry that is an address: every proxy appends the peer
 *    it saw (Kong in `supabase start`), so a client can only prepend entries, never the last one.
 * Nothing else is trusted: `X-Real-IP`, `Forwarded` and the first `X-Forwarded-For` entry are
 * what a client can write.
 *
 * `clientAddress` gives the address itself (for `Sb-Forwarded-For` and captcha checks);
 * `clientIpKey` the key rate limits count: IPv4 as is, IPv4-mapped IPv6 as IPv4, other IPv6 per
 * /64 network (one subscriber line, e.g. `2001:db8:1:2::/64`), in Postgres' `inet` text form.
 */
import ipaddr from 'ipaddr.js';

/** Headers as a Fetch `Headers` object or a plain lower-case map (PostgREST's `request.headers`). */
export type HeaderSource = Headers | Record<string, string | undefined>;

function header(headers: HeaderSource, name: string): string {
  const value = headers instanceof Headers ? headers.get(name) : headers[name];
  return (value ?? '').trim();
}

function parse(value: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const v = value.trim().replace(/^\[(.*)\]$/, '$1');
  // zone ids (fe80::1%eth0) and prefixes are no client addresses
  if (v.includes('%') || v.includes('/') || !ipaddr.isValid(v)) return null;
  // ipaddr.js accepts shorthand IPv4 such as "1" or "0x7f.1"; only dotted quads count
  if (!v.includes(':') && !ipaddr.IPv4.isValidFourPartDecimal(v)) return null;
  const ip = ipaddr.parse(v);
  return ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() ? (ip as ipaddr.IPv6).toIPv4Address() : ip;
}

/**
 * The client's address (see the module comment), as text (IPv6 in RFC 5952 form), or null when
 * neither header holds an address.
 */
export function clientAddress(headers: HeaderSource): string | null {
  const cf = parse(header(headers, 'cf-connecting-ip'));
  if (cf) return cf.toString();
  const entries = header(headers, 'x-forwarded-for').split(',');
  for (let i = entries.length - 1; i >= 0; i--) {
    const ip = parse(entries[i]!);
    if (ip) return ip.kind() === 'ipv6' ? (ip as ipaddr.IPv6).toRFC5952String() : ip.toString();
  }
  return null;
}

/**
 * The rate-limit key of the client's address (see the module comment), or `'unknown'` when the
 * request carries none. Equals `private.client_ip(headers)` in SQL.
 */
export function clientIpKey(headers: HeaderSource): string {
  const address = clientAddress(headers);
  if (!address) return 'unknown';
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).toByteArray().slice(0, 8).concat(Array.from({ length: 8 }, () => 0));
  return `${(ipaddr.fromByteArray(parts) as ipaddr.IPv6).toRFC5952String()}/64`;
}
