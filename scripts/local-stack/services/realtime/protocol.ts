/**
 * Phoenix channel wire formats spoken by Supabase Realtime and `@supabase/realtime-js`.
 *
 * - vsn 1.0.0: every frame is a JSON object `{topic, event, payload, ref, join_ref}`.
 * - vsn 2.0.0: text frames are JSON arrays `[join_ref, ref, topic, event, payload]`; binary
 *   frames start with a kind byte. realtime-js 2.x sends user broadcasts as kind 3
 *   ("user broadcast push") and decodes kind 4 ("user broadcast"):
 *
 *   kind 3 (client → server): u8 kind, u8 join_ref_len, u8 ref_len, u8 topic_len,
 *     u8 event_len, u8 metadata_len, u8 encoding (0 binary, 1 JSON), join_ref, ref, topic,
 *     user event, metadata (JSON text), payload bytes.
 *   kind 4 (server → client): u8 kind, u8 topic_len, u8 event_len, u8 metadata_len,
 *     u8 encoding, topic, user event, metadata (JSON text), payload bytes.
 *
 * Source: realtime-js `lib/serializer.ts` and Realtime's `RealtimeWeb.Socket.V2Serializer`.
 */

export type Vsn = '1.0.0' | '2.0.0';
export const SUPPORTED_VSN: readonly Vsn[] = ['1.0.0', '2.0.0'];

export const KIND_PUSH = 0;
export const KIND_USER_BROADCAST_PUSH = 3;
export const KIND_USER_BROADCAST = 4;

/** A decoded Phoenix message (text frames of either version). */
export interface PhxMessage {
  kind: 'message';
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
}

/** A decoded vsn 2.0.0 user broadcast push (binary kind 3). */
export interface UserBroadcastPush {
  kind: 'user_broadcast_push';
  joinRef: string | null;
  ref: string | null;
  topic: string;
  userEvent: string;
  metadata: Record<string, unknown>;
  encoding: 'json' | 'binary';
  body: Buffer;
}

export type Inbound = PhxMessage | UserBroadcastPush;

/** Raised for frames that cannot be decoded; `ref`/`topic` are set when they could be read. */
export class ProtocolError extends Error {
  constructor(
    message: string,
    public topic: string | null = null,
    public ref: string | null = null,
    public joinRef: string | null = null,
  ) {
    super(message);
  }
}

const refOf = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);

/**
 * Decodes one WebSocket frame. Throws ProtocolError for malformed frames (non-JSON, wrong
 * shape, unknown binary kind, truncated binary header).
 */
export function decodeFrame(vsn: Vsn, data: Buffer, isBinary: boolean): Inbound {
  if (isBinary) {
    if (vsn !== '2.0.0') throw new ProtocolError('binary frames need vsn 2.0.0');
    return decodeBinary(data);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(data.toString('utf8'));
  } catch {
    throw new ProtocolError('frame is not valid JSON');
  }
  if (vsn === '2.0.0') {
    if (!Array.isArray(parsed) || parsed.length < 5) throw new ProtocolError('expected V2 array [join_ref, ref, topic, event, payload]');
    const [joinRef, ref, topic, event, payload] = parsed as unknown[];
    if (typeof topic !== 'string' || typeof event !== 'string') {
      throw new ProtocolError('topic and event must be strings', typeof topic === 'string' ? topic : null, refOf(ref), refOf(joinRef));
    }
    return { kind: 'message', joinRef: refOf(joinRef), ref: refOf(ref), topic, event, payload };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ProtocolError('expected a JSON object {topic, event, payload, ref}');
  }
  const o = parsed as Record<string, unknown>;
  if (typeof o.topic !== 'string' || typeof o.event !== 'string') {
    throw new ProtocolError('topic and event must be strings', typeof o.topic === 'string' ? o.topic : null, refOf(o.ref), refOf(o.join_ref));
  }
  return { kind: 'message', joinRef: refOf(o.join_ref), ref: refOf(o.ref), topic: o.topic, event: o.event, payload: o.payload };
}

function decodeBinary(buf: Buffer): Inbound {
  if (buf.length < 1) throw new ProtocolError('empty binary frame');
  const kind = buf[0];
  if (kind === KIND_USER_BROADCAST_PUSH) {
    if (buf.length < 7) throw new ProtocolError('truncated user broadcast push header');
    const [joinRefLen, refLen, topicLen, eventLen, metaLen, encoding] = [buf[1]!, buf[2]!, buf[3]!, buf[4]!, buf[5]!, buf[6]!];
    let off = 7;
    const take = (n: number): string => {
      if (off + n > buf.length) throw new ProtocolError('truncated user broadcast push');
      const s = buf.toString('utf8', off, off + n);
      off += n;
      return s;
    };
    const joinRef = take(joinRefLen);
    const ref = take(refLen);
    const topic = take(topicLen);
    const userEvent = take(eventLen);
    const metaText = take(metaLen);
    let metadata: Record<string, unknown> = {};
    if (metaLen > 0) {
      try {
        const m = JSON.parse(metaText) as unknown;
        if (m && typeof m === 'object' && !Array.isArray(m)) metadata = m as Record<string, unknown>;
      } catch {
        throw new ProtocolError('user broadcast metadata is not valid JSON', topic, ref || null, joinRef || null);
      }
    }
    if (encoding !== 0 && encoding !== 1) throw new ProtocolError('unknown payload encoding', topic, ref || null, joinRef || null);
    const body = buf.subarray(off);
    if (encoding === 1) {
      try {
        JSON.parse(body.toString('utf8'));
      } catch {
        throw new ProtocolError('user broadcast payload is not valid JSON', topic, ref || null, joinRef || null);
      }
    }
    return {
      kind: 'user_broadcast_push',
      joinRef: joinRef || null,
      ref: ref || null,
      topic,
      userEvent,
      metadata,
      encoding: encoding === 1 ? 'json' : 'binary',
      body,
    };
  }
  throw new ProtocolError(`unsupported binary frame kind ${kind}`);
}

/** Encodes a text message for the connection's serializer version. */
export function encodeMessage(vsn: Vsn, joinRef: string | null, ref: string | null, topic: string, event: string, payload: unknown): string {
  if (vsn === '2.0.0') return JSON.stringify([joinRef, ref, topic, event, payload]);
  return JSON.stringify({ topic, event, payload, ref, join_ref: joinRef });
}

/** Encodes a `phx_reply` for the given push. */
export function encodeReply(
  vsn: Vsn,
  joinRef: string | null,
  ref: string | null,
  topic: string,
  status: 'ok' | 'error',
  response: unknown,
): string {
  return encodeMessage(vsn, joinRef, ref, topic, 'phx_reply', { status, response });
}

/**
 * Encodes a vsn 2.0.0 user broadcast (binary kind 4).
 * Throws when topic, event or metadata exceed 255 bytes (the header stores u8 lengths).
 */
export function encodeUserBroadcast(
  topic: string,
  userEvent: string,
  metadata: Record<string, unknown> | null,
  encoding: 'json' | 'binary',
  body: Buffer,
): Buffer {
  const topicB = Buffer.from(topic, 'utf8');
  const eventB = Buffer.from(userEvent, 'utf8');
  const metaB = metadata ? Buffer.from(JSON.stringify(metadata), 'utf8') : Buffer.alloc(0);
  if (topicB.length > 255 || eventB.length > 255 || metaB.length > 255) {
    throw new Error('topic, event and metadata must each be at most 255 bytes');
  }
  const header = Buffer.from([KIND_USER_BROADCAST, topicB.length, eventB.length, metaB.length, encoding === 'json' ? 1 : 0]);
  return Buffer.concat([header, topicB, eventB, metaB, body]);
}
