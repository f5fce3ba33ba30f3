import { isValidElement, type ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { formatDayHeading, formatRelativeTime } from '@/lib/format';
import { withUnreadPrefix } from '@/lib/title-prefix';
import { attachmentProblem, type ChatMessage, mergeMessages, safeFileName } from '../api/chat-logic';
import { linkify } from '../components/message-text';

const message = (id: number, body: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  conversation_id: 'c',
  sender_id: 's',
  body,
  created_at: '2026-11-24T10:00:00Z',
  edited_at: null,
  deleted_at: null,
  attachment_path: null,
  attachment_name: null,
  attachment_type: null,
  attachment_size: null,
  ...extra,
});

describe('chat history merging (issue 13: no duplicates, in order, edits win)', () => {
  it('merges by id, keeps the order by id and lets later copies replace earlier ones', () => {
    const current = [message(3, 'c'), message(1, 'a')];
    const merged = mergeMessages(current, [message(2, 'b'), message(3, 'c edited', { edited_at: '2026-11-24T10:01:00Z' }), message(1, 'a')]);
    expect(merged.map((m) => [m.id, m.body])).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'c edited'],
    ]);
  });
});

describe('links in messages (issue 13: clickable and safe)', () => {
  const links = (text: string) =>
    linkify(text)
      .filter((n): n is ReactElement<{ href: string; rel: string }> => isValidElement(n))
      .map((n) => [n.props.href, n.props.rel]);

  it('turns http(s) URLs into links without opener or referrer, trailing punctuation stays text', () => {
    expect(links('See https://example.com/plan. And http://a.example/x?y=1!')).toEqual([
      ['https://example.com/plan', 'noopener noreferrer nofollow ugc'],
      ['http://a.example/x?y=1', 'noopener noreferrer nofollow ugc'],
    ]);
    expect(linkify('plain text').join('')).toBe('plain text');
  });

  it('never links other schemes or user-info tricks', () => {
    expect(links('javascript:alert(1) data:text/html,x https://bank.example@evil.example/')).toEqual([]);
  });
});

describe('attachments (issue 13: images and PDF up to 10 MB)', () => {
  it('accepts images and PDF up to 10 MB, refuses other types and sizes', () => {
    expect(attachmentProblem({ type: 'application/pdf', size: 10 * 1024 * 1024 })).toBeNull();
    expect(attachmentProblem({ type: 'image/png', size: 1 })).toBeNull();
    expect(attachmentProblem({ type: 'application/pdf', size: 10 * 1024 * 1024 + 1 })).toBe('size');
    expect(attachmentProblem({ type: 'text/html', size: 10 })).toBe('type');
  });

  it('makes object names safe', () => {
    expect(safeFileName('Pitch Deck (final).pdf')).toBe('Pitch_Deck_final_.pdf');
    expect(safeFileName('../../etc/passwd')).toBe('etc_passwd');
    expect(safeFileName('Übersicht.pdf')).toBe('U_bersicht.pdf');
  });
});

describe('times and titles (issue 13)', () => {
  const now = new Date('2026-11-24T12:00:00');
  it('"last seen" in the page language', () => {
    expect(formatRelativeTime(new Date('2026-11-24T11:55:00'), 'en', now)).toBe('5 minutes ago');
    expect(formatRelativeTime(new Date('2026-11-24T11:55:00'), 'de', now)).toBe('vor 5 Minuten');
    expect(formatRelativeTime(new Date('2026-11-24T11:59:50'), 'en', now)).toBe('now');
    expect(formatRelativeTime(new Date('2026-11-21T12:00:00'), 'de', now)).toBe('vor 3 Tagen');
  });
  it('day separators', () => {
    expect(formatDayHeading(new Date('2026-11-24T08:00:00'), 'de', now)).toBe('Heute');
    expect(formatDayHeading(new Date('2026-11-23T23:00:00'), 'en', now)).toBe('Yesterday');
    const older = formatDayHeading(new Date('2026-11-20T10:00:00'), 'en', now);
    expect(older).toMatch(/^Friday,? 20 November 2026$/);
  });
  it('unread count before the tab title', () => {
    expect(withUnreadPrefix('Chat | Teamwerk', 3)).toBe('(3) Chat | Teamwerk');
    expect(withUnreadPrefix('Chat | Teamwerk', 0)).toBe('Chat | Teamwerk');
  });
});
