/**
 * Topic registry and fan-out: delivers one message to every channel joined to a topic,
 * encoding it once per serializer version (as Realtime's MessageDispatcher caches the encoded
 * frame per serializer), so a broadcast to N subscribers costs two encodings, not N.
 */
import { encodeMessage, encodeUserBroadcast, type Vsn } from './protocol.ts';

/** A message to push to the subscribers of a topic. */
export type Outbound =
  /** A JSON push, e.g. `broadcast` with `{type, event, payload}` or `presence_diff`. */
  | { kind: 'json'; event: string; payload: unknown }
  /** A user broadcast carried as raw bytes (vsn 2 binary kind 4; JSON for vsn 1 when possible). */
  | { kind: 'user'; userEvent: string; encoding: 'json' | 'binary'; body: Buffer; metadata: Record<string, unknown> | null };

/** What the hub needs from a joined channel. */
export interface Subscriber {
  /** The joined topic, e.g. `realtime:room-1`. */
  readonly topic: string;
  readonly vsn: Vsn;
  /**
   * Sends an encoded frame on the channel's socket (no-op when the socket is closed); `binary`
   * tells whether a Buffer goes out as a binary or a text frame.
   */
  sendFrame(frame: string | Buffer, binary?: boolean): void;
}

/**
 * Encodes `out` for one serializer version and topic. Returns null when the version cannot
 * carry the message (a binary user payload for vsn 1.0.0 is dropped, as Realtime does).
 */
export function frameFor(vsn: Vsn, topic: string, out: Outbound): string | Buffer | null {
  if (out.kind === 'json') return encodeMessage(vsn, null, null, topic, out.event, out.payload);
  if (vsn === '2.0.0') return encodeUserBroadcast(topic, out.userEvent, out.metadata, out.encoding, out.body);
  if (out.encoding !== 'json') return null;
  const payload: Record<string, unknown> = {
    event: out.userEvent,
    payload: JSON.parse(out.body.toString('utf8')) as unknown,
    type: 'broadcast',
  };
  if (out.metadata) payload.meta = out.metadata;
  return encodeMessage(vsn, null, null, topic, 'broadcast', payload);
}

/** Key of a topic in the hub: public and private channels of the same name are separate. */
export function hubKey(subTopic: string, isPrivate: boolean): string {
  return `${isPrivate ? 'private' : 'public'}:${subTopic}`;
}

/** Registry of joined channels per hub key. */
export class Hub<S extends Subscriber> {
  private readonly topics = new Map<string, Set<S>>();

  /** Registers a joined channel under its hub key. */
  add(key: string, sub: S): void {
    let set = this.topics.get(key);
    if (!set) {
      set = new Set();
      this.topics.set(key, set);
    }
    set.add(sub);
  }

  /** Unregisters a channel (no-op when absent). */
  remove(key: string, sub: S): void {
    const set = this.topics.get(key);
    if (!set) return;
    set.delete(sub);
    if (set.size === 0) this.topics.delete(key);
  }

  /** The channels joined under `key` (empty set when none). */
  subscribers(key: string): ReadonlySet<S> {
    return this.topics.get(key) ?? new Set();
  }

  /** Every joined channel (for postgres_changes matching). */
  *all(): Iterable<S> {
    for (const set of this.topics.values()) yield* set;
  }

  /**
   * Pushes `out` to the subscribers of `key`, skipping `except` and those `accept` rejects.
   * Returns the number of frames sent.
   */
  publish(key: string, out: Outbound, opts: { except?: S; accept?: (s: S) => boolean } = {}): number {
    const set = this.topics.get(key);
    if (!set) return 0;
    // Every subscriber of a key joined the same topic string, so one frame per version suffices;
    // text frames are turned into bytes once too.
    const cache: Partial<Record<Vsn, { data: Buffer; binary: boolean } | null>> = {};
    let sent = 0;
    for (const sub of set) {
      if (sub === opts.except) continue;
      if (opts.accept && !opts.accept(sub)) continue;
      let frame = cache[sub.vsn];
      if (frame === undefined) {
        try {
          const encoded = frameFor(sub.vsn, sub.topic, out);
          frame = encoded === null ? null : typeof encoded === 'string' ? { data: Buffer.from(encoded, 'utf8'), binary: false } : { data: encoded, binary: true };
        } catch {
          frame = null;
        }
        cache[sub.vsn] = frame;
      }
      if (frame === null) continue;
      sub.sendFrame(frame.data, frame.binary);
      sent++;
    }
    return sent;
  }
}
