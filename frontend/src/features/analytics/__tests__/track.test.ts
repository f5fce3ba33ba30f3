/**
 * The browser half of analytics' consent rule (issue 15, TDDDG §25): without consent to
 * statistics no request leaves the browser; crawlers send nothing; one request per item and
 * metric per page load, with the stored session's token so the database recognises owners.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

function setBrowser(consent: { statistics: boolean } | null, userAgent = CHROME, session: string | null = null) {
  const cookie = consent ? `teamwerk_consent=${encodeURIComponent(JSON.stringify({ ...consent, marketing: false }))}` : '';
  vi.stubGlobal('document', { cookie });
  vi.stubGlobal('navigator', { userAgent });
  const store = new Map<string, string>(session ? [['sb-127-auth-token', JSON.stringify({ access_token: session })]] : []);
  vi.stubGlobal('localStorage', {
    get length() {
      return store.size;
    },
    key: (i: number) => [...store.keys()][i] ?? null,
    getItem: (k: string) => store.get(k) ?? null,
  });
}

describe('trackItem', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    vi.resetModules();
    fetchMock = vi.fn(async () => new Response('"counted"', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends nothing before the visitor decided or when statistics were refused', async () => {
    const { trackItem } = await import('@/lib/track');
    setBrowser(null);
    expect(trackItem('project', 7, 'view')).toBe(false);
    setBrowser({ statistics: false });
    expect(trackItem('project', 7, 'view')).toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends nothing for crawlers', async () => {
    const { trackItem } = await import('@/lib/track');
    setBrowser({ statistics: true }, 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)');
    expect(trackItem('job', 'koch-berlin', 'apply_click')).toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('with consent sends one request per item and metric, carrying the stored session token', async () => {
    const { trackItem } = await import('@/lib/track');
    setBrowser({ statistics: true }, CHROME, 'token-of-the-visitor');
    expect(trackItem('project', 7, 'view')).toBe(true);
    expect(trackItem('project', 7, 'view')).toBe(false);
    expect(trackItem('project', 7, 'external_link_click')).toBe(true);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toMatch(/\/rest\/v1\/rpc\/analytics_track$/);
    expect(JSON.parse(init.body as string)).toEqual({ p_item_type: 'project', p_item_id: '7', p_metric: 'view', p_statistics_consent: true });
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer token-of-the-visitor');
    expect(init.keepalive).toBe(true);
  });
});
