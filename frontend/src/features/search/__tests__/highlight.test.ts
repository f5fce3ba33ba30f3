import { describe, expect, it } from 'vitest';
import { parseSearchParams, toSearchParams } from '../api/search';
import { decodeEntities, splitHighlight, splitSnippet } from '../components/highlight';

describe('splitHighlight', () => {
  it('turns <mark> into marked parts and decodes the escaped text', () => {
    expect(splitHighlight('Die <mark>Gründer</mark> &amp; Co &lt;b&gt;')).toEqual([
      { text: 'Die ', marked: false },
      { text: 'Gründer', marked: true },
      { text: ' & Co <b>', marked: false },
    ]);
  });
  it('never interprets other tags: an escaped script stays text', () => {
    const parts = splitHighlight('&lt;script&gt;alert(1)&lt;/script&gt; <mark>x</mark>');
    expect(parts[0]).toEqual({ text: '<script>alert(1)</script> ', marked: false });
    expect(parts[1]).toEqual({ text: 'x', marked: true });
  });
  it('decodes each entity once (no double decoding)', () => {
    expect(decodeEntities('&amp;lt;')).toBe('&lt;');
  });
});

describe('splitSnippet (issue 33 §3)', () => {
  it('strips Markdown around and inside the marks', () => {
    expect(splitSnippet('**Deine Aufgaben**\n- Apps in <mark>Köln</mark> bauen\n- [Website](https://x.example) &amp; **<mark>mehr</mark>**')).toEqual([
      { text: 'Deine Aufgaben Apps in ', marked: false },
      { text: 'Köln', marked: true },
      { text: ' bauen Website & ', marked: false },
      { text: 'mehr', marked: true },
    ]);
  });
  it('drops the orphan half of a delimiter pair a fragment cut off, and raw HTML as the page does', () => {
    expect(splitSnippet('wichtig** für <mark>Berlin</mark> &lt;b&gt;los')).toEqual([
      { text: 'wichtig für ', marked: false },
      { text: 'Berlin', marked: true },
      { text: ' los', marked: false },
    ]);
  });
});

describe('search URL parameters', () => {
  it('round-trips and drops invalid values', () => {
    const p = parseSearchParams(new URLSearchParams('q=Gr%C3%BCnder&type=event,bogus,event&category=art&city=K%C3%B6ln&from=2026-01-01&to=x&page=2&view=map'));
    expect(p).toEqual({ q: 'Gründer', types: ['event'], category: 'art', city: 'Köln', from: '2026-01-01', to: '', page: 2, view: 'map' });
    expect(toSearchParams(p).toString()).toBe('q=Gr%C3%BCnder&type=event&category=art&city=K%C3%B6ln&from=2026-01-01&page=2&view=map');
    expect(parseSearchParams(new URLSearchParams('view=globe')).view).toBe('list');
    expect(parseSearchParams(new URLSearchParams('category=nope&page=-3')).page).toBe(1);
  });
});
