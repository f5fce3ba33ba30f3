/**
 * Presence tracking per topic, in the shape of Phoenix.Presence (what realtime-js syncs):
 * state `{ [key]: { metas: [{ phx_ref, ...meta }] } }` and diffs
 * `{ joins: {...same shape}, leaves: {...same shape} }`. An update of a tracked meta is a
 * leave of the old meta plus a join of the new one carrying `phx_ref_prev`, as Phoenix.Tracker does.
 */
import { randomBytes } from 'node:crypto';

export type PresenceMeta = Record<string, unknown> & { phx_ref: string; phx_ref_prev?: string };
export type PresenceMap = Record<string, { metas: PresenceMeta[] }>;
export interface PresenceDiff {
  joins: PresenceMap;
  leaves: PresenceMap;
}

interface Entry<O> {
  owner: O;
  key: string;
  meta: PresenceMeta;
}

/** A new unique presence reference (Phoenix uses an opaque base64 string). */
function newRef(): string {
  return randomBytes(12).toString('base64url');
}

const withMeta = (map: PresenceMap, key: string, meta: PresenceMeta): void => {
  (map[key] ??= { metas: [] }).metas.push(meta);
};

/** Presence entries of all topics; `O` is the owner (a joined channel) of an entry. */
export class PresenceRegistry<O> {
  private readonly topics = new Map<string, Entry<O>[]>();

  /** Current state of a topic as pushed in `presence_state`. */
  state(topicKey: string): PresenceMap {
    const out: PresenceMap = {};
    for (const e of this.topics.get(topicKey) ?? []) withMeta(out, e.key, e.meta);
    return out;
  }

  /** The meta `owner` tracks in `topicKey`, without `phx_ref`s (to detect unchanged payloads). */
  trackedPayload(topicKey: string, owner: O): Record<string, unknown> | undefined {
    const e = (this.topics.get(topicKey) ?? []).find((x) => x.owner === owner);
    if (!e) return undefined;
    const { phx_ref: _r, phx_ref_prev: _p, ...rest } = e.meta;
    return rest;
  }

  /**
   * Tracks (or updates) `owner`'s presence under `key` with `payload`; returns the diff to
   * broadcast. One entry per owner and topic, as one channel tracks one presence.
   */
  track(topicKey: string, owner: O, key: string, payload: Record<string, unknown>): PresenceDiff {
    const list = this.topics.get(topicKey) ?? [];
    const diff: PresenceDiff = { joins: {}, leaves: {} };
    const idx = list.findIndex((e) => e.owner === owner);
    const meta: PresenceMeta = { ...payload, phx_ref: newRef() };
    if (idx >= 0) {
      const old = list[idx]!;
      withMeta(diff.leaves, old.key, old.meta);
      if (old.key === key) meta.phx_ref_prev = old.meta.phx_ref;
      list.splice(idx, 1);
    }
    list.push({ owner, key, meta });
    this.topics.set(topicKey, list);
    withMeta(diff.joins, key, meta);
    return diff;
  }

  /** Removes `owner`'s presence in `topicKey`; returns the diff, or null when nothing was tracked. */
  untrack(topicKey: string, owner: O): PresenceDiff | null {
    const list = this.topics.get(topicKey);
    if (!list) return null;
    const idx = list.findIndex((e) => e.owner === owner);
    if (idx < 0) return null;
    const [old] = list.splice(idx, 1);
    if (list.length === 0) this.topics.delete(topicKey);
    const diff: PresenceDiff = { joins: {}, leaves: {} };
    withMeta(diff.leaves, old!.key, old!.meta);
    return diff;
  }
}
