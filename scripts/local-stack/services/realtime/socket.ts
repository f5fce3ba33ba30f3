/**
 * One WebSocket connection speaking the Phoenix channel protocol as Supabase Realtime does:
 * heartbeat on topic `phoenix`, `phx_join` / `phx_leave` per `realtime:<topic>` channel,
 * `broadcast`, `presence` (track/untrack), `access_token` (token refresh), server pushes
 * `presence_state`, `presence_diff`, `postgres_changes`, `system`, `phx_close`.
 * Messages of one connection are handled strictly in arrival order.
 * Source: Realtime `RealtimeWeb.RealtimeChannel`, `BroadcastHandler`, `PresenceHandler`.
 */
import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type pg from 'pg';
import type { JwtClaims } from '../../db.ts';
import type { StackConfig } from '../../config.ts';
import { decodeFrame, encodeMessage, encodeReply, encodeUserBroadcast, ProtocolError, type Inbound, type PhxMessage, type UserBroadcastPush, type Vsn } from './protocol.ts';
import { hubKey, type Hub, type Outbound, type Subscriber } from './fanout.ts';
import type { PresenceDiff, PresenceRegistry } from './presence.ts';
import { checkToken, readPolicies, writePolicies, type Extension, type ReadPolicies } from './authz.ts';
import { parseBindings, validateBindings, type PgBinding, type PgSubscriber } from './pgchanges.ts';

/** Shared state and settings of the realtime service. */
export interface RealtimeRuntime {
  config: StackConfig;
  pool: pg.Pool;
  log: (message: string, extra?: unknown) => void;
  hub: Hub<Channel>;
  presence: PresenceRegistry<Channel>;
  /** Largest accepted broadcast / presence payload in bytes (Realtime's tenant payload limit). */
  maxPayloadBytes: number;
  /** Whether the logical replication stream (Broadcast from Database, postgres_changes) runs. */
  replicationReady: () => boolean;
}

const REPLAY_HARD_LIMIT = 25;
/** Realtime's default `max_channels_per_client`. */
const MAX_CHANNELS_PER_CLIENT = 100;
const REPLICATION_READY_TIMEOUT_MS = 10_000;

const TOKEN_RECHECK_MS = 5 * 60_000;

type Obj = Record<string, unknown>;
interface ReplayRow {
  id: string;
  event: string;
  payload: string | null;
  binary_payload: Buffer | null;
}
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const truthy = (v: unknown): boolean => v === true || v === 'true';

/** A joined `realtime:<topic>` channel of one connection. */
export class Channel implements Subscriber, PgSubscriber {
  readonly subTopic: string;
  readonly key: string;
  presenceEnabled: boolean;
  read: ReadPolicies | null = null;
  write: Partial<Record<Extension, boolean>> = {};
  pgBindings: PgBinding[] = [];
  pgActive = false;
  tokenTimer: NodeJS.Timeout | null = null;
  closed = false;
  /** Ids of the database messages replayed at join (not delivered a second time live). */
  replayed: Set<string> | null = null;

  constructor(
    readonly conn: Connection,
    readonly topic: string,
    readonly joinRef: string | null,
    readonly isPrivate: boolean,
    readonly selfBroadcast: boolean,
    readonly ackBroadcast: boolean,
    readonly presenceKey: string,
    presenceEnabled: boolean,
    public accessToken: string,
    public claims: JwtClaims,
    public exp: number,
  ) {
    this.subTopic = topic.slice('realtime:'.length);
    this.key = hubKey(this.subTopic, isPrivate);
    this.presenceEnabled = presenceEnabled;
  }

  get vsn(): Vsn {
    return this.conn.vsn;
  }

  /** Sends an already encoded frame on this channel's socket. */
  sendFrame(frame: string | Buffer, binary?: boolean): void {
    this.conn.send(frame, binary);
  }

  /** Pushes a channel message (carries this channel's join_ref, as Phoenix channel pushes do). */
  push(event: string, payload: unknown): void {
    this.conn.send(encodeMessage(this.conn.vsn, this.joinRef, null, this.topic, event, payload));
  }

  /** Pushes a `postgres_changes` message (no join_ref, as Realtime's fastlane sends it). */
  pushPostgresChange(payload: { ids: number[]; data: Record<string, unknown> }): void {
    if (!this.closed) this.conn.send(encodeMessage(this.conn.vsn, null, null, this.topic, 'postgres_changes', payload));
  }

  /** May this channel receive presence diffs? Public: always; private: presence read policy. */
  canReadPresence(): boolean {
    return !this.isPrivate || this.read?.presence === true;
  }

  /** May this channel receive broadcasts? Public: always; private: broadcast read policy. */
  canReadBroadcast(): boolean {
    return !this.isPrivate || this.read?.broadcast === true;
  }
}

/** One client socket. */
export class Connection {
  readonly channels = new Map<string, Channel>();
  lastSeen = Date.now();
  closed = false;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly rt: RealtimeRuntime,
    private readonly ws: WebSocket,
    readonly vsn: Vsn,
    /** The apikey the socket connected with: the default access token of its channels. */
    private readonly apikey: string,
    /** Idle time after which the socket is closed (no frame, e.g. no heartbeat, received). */
    readonly idleTimeoutMs: number,
  ) {}

  /** Sends a frame; strings go out as text, Buffers as binary unless `binary` is false. */
  send(frame: string | Buffer, binary?: boolean): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    if (binary === undefined) this.ws.send(frame);
    else this.ws.send(frame, { binary });
  }

  private reply(joinRef: string | null, ref: string | null, topic: string, status: 'ok' | 'error', response: unknown): void {
    this.send(encodeReply(this.vsn, joinRef, ref, topic, status, response));
  }

  /** Entry point for every received frame; processing is serialised per connection. */
  onFrame(data: Buffer, isBinary: boolean): void {
    this.lastSeen = Date.now();
    this.queue = this.queue
      .then(() => this.process(data, isBinary))
      .catch((err: unknown) => this.rt.log(`message handling failed: ${(err as Error).stack ?? String(err)}`));
  }

  private async process(data: Buffer, isBinary: boolean): Promise<void> {
    if (this.closed) return;
    let msg: Inbound;
    try {
      msg = decodeFrame(this.vsn, data, isBinary);
    } catch (err) {
      const e = err as ProtocolError;
      // Frames we cannot attribute to a push are dropped; attributable ones get an error reply.
      if (e instanceof ProtocolError && e.topic && e.ref) this.reply(e.joinRef, e.ref, e.topic, 'error', { reason: e.message });
      return;
    }
    if (msg.kind === 'message' && msg.topic === 'phoenix') {
      if (msg.event === 'heartbeat') this.reply(null, msg.ref, 'phoenix', 'ok', {});
      else this.reply(msg.joinRef, msg.ref, msg.topic, 'error', { reason: 'unmatched topic' });
      return;
    }
    if (msg.kind === 'message' && msg.event === 'phx_join') return this.join(msg);
    const ch = this.channels.get(msg.topic);
    if (!ch || (msg.joinRef !== null && ch.joinRef !== null && msg.joinRef !== ch.joinRef)) {
      if (msg.ref !== null) this.reply(msg.joinRef, msg.ref, msg.topic, 'error', { reason: 'unmatched topic' });
      return;
    }
    if (msg.kind === 'user_broadcast_push') return this.broadcast(ch, msg);
    switch (msg.event) {
      case 'phx_leave':
        this.reply(msg.joinRef, msg.ref, msg.topic, 'ok', {});
        this.closeChannel(ch, true);
        return;
      case 'broadcast':
        return this.broadcast(ch, msg);
      case 'presence':
        return this.presence(ch, msg);
      case 'access_token':
        return this.accessToken(ch, msg);
      default:
        // Realtime logs unexpected client events and otherwise ignores them.
        return;
    }
  }

  // ---------------------------------------------------------------- join / leave

  private async join(msg: PhxMessage): Promise<void> {
    const { topic, ref, joinRef } = msg;
    const fail = (reason: string) => this.reply(joinRef, ref, topic, 'error', { reason });
    if (!topic.startsWith('realtime:')) return fail('unmatched topic');
    const existing = this.channels.get(topic);
    if (existing) this.closeChannel(existing, true);
    const subTopic = topic.slice('realtime:'.length);
    if (subTopic === '') return fail('TopicNameRequired: You must provide a topic name');
    if (this.channels.size >= MAX_CHANNELS_PER_CLIENT) return fail('ChannelRateLimitReached: Too many channels');

    const payload = isObj(msg.payload) ? msg.payload : {};
    const config = isObj(payload.config) ? payload.config : {};
    const broadcast = isObj(config.broadcast) ? config.broadcast : {};
    const presence = isObj(config.presence) ? config.presence : {};
    const token =
      typeof payload.access_token === 'string' && !payload.access_token.startsWith('sb_')
        ? payload.access_token
        : typeof payload.user_token === 'string'
          ? payload.user_token
          : this.apikey;
    const checked = await checkToken(token, this.rt.config.jwtSecret);
    if (!checked.ok) return fail(`${checked.code}: ${checked.message}`);

    const isPrivate = truthy(config.private);
    const presenceEnabled = truthy(presence.enabled);
    const presenceKey = typeof presence.key === 'string' && presence.key !== '' ? presence.key : randomUUID();
    const parsed = parseBindings(config.postgres_changes);
    const ch = new Channel(
      this,
      topic,
      joinRef,
      isPrivate,
      truthy(broadcast.self),
      truthy(broadcast.ack),
      presenceKey,
      presenceEnabled,
      token,
      checked.claims,
      checked.exp,
    );
    ch.pgBindings = parsed.bindings;

    const replay = broadcast.replay;
    if (replay !== undefined && replay !== null) {
      if (!isPrivate) return fail('UnableToReplayMessages: Replay is not allowed for public channels');
      if (!isObj(replay) || !Number.isInteger(replay.since) || (replay.limit !== undefined && !Number.isInteger(replay.limit))) {
        return fail('UnableToReplayMessages: Replay params are not valid');
      }
    }
    if (isPrivate) {
      try {
        ch.read = await readPolicies(this.rt.pool, ch.claims, subTopic, presenceEnabled);
      } catch (err) {
        this.rt.log(`RlsPolicyError on ${topic}: ${(err as Error).message}`);
        ch.read = { broadcast: false, presence: presenceEnabled ? false : null };
      }
      if (!ch.read.broadcast && !ch.read.presence) {
        return fail(`Unauthorized: You do not have permissions to read from this Channel topic: ${subTopic}`);
      }
    }
    let replayRows: ReplayRow[] = [];
    if (isObj(replay)) {
      if (!ch.read?.broadcast) return fail(`Unauthorized: You do not have permissions to read from this Channel topic: ${subTopic}`);
      try {
        replayRows = await this.replayMessages(subTopic, replay.since as number, (replay.limit as number | undefined) ?? REPLAY_HARD_LIMIT);
      } catch (err) {
        this.rt.log(`UnableToReplayMessages on ${topic}: ${(err as Error).message}`);
        return fail('UnableToReplayMessages: Realtime was unable to replay messages');
      }
      ch.replayed = new Set(replayRows.map((r) => r.id));
    }
    // Realtime subscribes the bindings right after the join; doing it before the reply makes
    // SUBSCRIBED mean "changes from now on arrive" (the system message still follows the reply).
    let pgProblem: string | null = parsed.error;
    if (!pgProblem && ch.pgBindings.length > 0) {
      try {
        pgProblem = await validateBindings(this.rt.pool, ch.pgBindings, typeof ch.claims.role === 'string' ? ch.claims.role : 'anon');
      } catch (err) {
        pgProblem = `Unable to subscribe to changes: ${(err as Error).message}`;
      }
      ch.pgActive = pgProblem === null;
    }
    if (this.closed) return;
    const raced = this.channels.get(topic);
    if (raced) this.closeChannel(raced, true);

    this.channels.set(topic, ch);
    this.rt.hub.add(ch.key, ch);
    this.reply(joinRef, ref, topic, 'ok', { postgres_changes: parsed.reply });
    for (const row of replayRows) this.pushReplayed(ch, row);
    if (presenceEnabled && ch.canReadPresence()) ch.push('presence_state', this.rt.presence.state(ch.key));
    this.scheduleTokenCheck(ch);
    if (truthy(broadcast.replication_ready)) this.notifyReplicationReady(ch, Date.now() + REPLICATION_READY_TIMEOUT_MS);

    if (pgProblem || ch.pgBindings.length > 0) {
      ch.push('system', {
        extension: 'postgres_changes',
        status: pgProblem ? 'error' : 'ok',
        message: pgProblem ?? 'Subscribed to PostgreSQL',
        channel: subTopic,
      });
    }
  }

  /**
   * The last `limit` (1..25) broadcast messages of a private topic since `since` (ms epoch),
   * oldest first (Realtime `Realtime.Messages.replay`).
   */
  private async replayMessages(topic: string, since: number, limit: number): Promise<ReplayRow[]> {
    const res = await this.rt.pool.query<ReplayRow>(
      `select id::text, event, payload::text as payload, binary_payload from realtime.messages
        where topic = $1 and private is true and extension = 'broadcast'
          and inserted_at >= to_timestamp($2 / 1000.0)::timestamp and inserted_at < now()::timestamp + interval '1 minute'
        order by inserted_at desc limit $3`,
      [topic, since, Math.max(1, Math.min(limit, REPLAY_HARD_LIMIT))],
    );
    return res.rows.reverse();
  }

  private pushReplayed(ch: Channel, row: ReplayRow): void {
    const meta = { replayed: true, id: row.id };
    if (row.payload !== null) {
      ch.push('broadcast', { payload: JSON.parse(row.payload) as unknown, event: row.event, type: 'broadcast', meta });
    } else if (row.binary_payload && this.vsn === '2.0.0') {
      this.send(encodeUserBroadcast(ch.topic, row.event, meta, 'binary', row.binary_payload));
    }
  }

  /** `config.broadcast.replication_ready`: a system message once the replication stream runs. */
  private notifyReplicationReady(ch: Channel, deadline: number): void {
    if (ch.closed) return;
    if (this.rt.replicationReady()) {
      ch.push('system', { extension: 'system', status: 'ok', message: 'Replication connection established', channel: ch.subTopic });
    } else if (Date.now() >= deadline) {
      this.shutdown(ch, 'Replication connection was not established in time');
    } else {
      setTimeout(() => this.notifyReplicationReady(ch, deadline), 500).unref();
    }
  }

  /** Removes a channel; with `notify`, tells the client with `phx_close` (as Phoenix does on leave). */
  closeChannel(ch: Channel, notify: boolean): void {
    if (ch.closed) return;
    ch.closed = true;
    if (notify) this.send(encodeMessage(this.vsn, ch.joinRef, ch.joinRef, ch.topic, 'phx_close', {}));
    if (this.channels.get(ch.topic) === ch) this.channels.delete(ch.topic);
    this.rt.hub.remove(ch.key, ch);
    if (ch.tokenTimer) clearTimeout(ch.tokenTimer);
    const diff = this.rt.presence.untrack(ch.key, ch);
    if (diff) this.publishPresenceDiff(ch.key, diff);
  }

  /** Realtime's shutdown_response: a `system` error push, then the channel is closed. */
  private shutdown(ch: Channel, message: string): void {
    if (ch.closed) return;
    ch.push('system', { extension: 'system', status: 'error', message, channel: ch.subTopic });
    this.closeChannel(ch, true);
  }

  private scheduleTokenCheck(ch: Channel): void {
    if (ch.tokenTimer) clearTimeout(ch.tokenTimer);
    const left = ch.exp * 1000 - Date.now();
    ch.tokenTimer = setTimeout(() => {
      ch.tokenTimer = null;
      if (ch.closed) return;
      if (Date.now() >= ch.exp * 1000) {
        this.shutdown(ch, `Token has expired ${Math.floor((Date.now() - ch.exp * 1000) / 1000)} seconds ago`);
      } else {
        this.scheduleTokenCheck(ch);
      }
    }, Math.max(0, Math.min(TOKEN_RECHECK_MS, left)));
    ch.tokenTimer.unref();
  }

  /** Socket closed or timed out: every channel leaves (presence leaves are broadcast). */
  onClose(): void {
    if (this.closed) return;
    this.closed = true;
    for (const ch of [...this.channels.values()]) this.closeChannel(ch, false);
  }

  // ---------------------------------------------------------------- broadcast

  private async broadcast(ch: Channel, msg: PhxMessage | UserBroadcastPush): Promise<void> {
    let out: Outbound;
    let size: number;
    if (msg.kind === 'user_broadcast_push') {
      out = { kind: 'user', userEvent: msg.userEvent, encoding: msg.encoding, body: msg.body, metadata: null };
      size = msg.body.length;
    } else {
      if (!isObj(msg.payload)) {
        if (ch.ackBroadcast && msg.ref !== null) this.reply(msg.joinRef, msg.ref, msg.topic, 'error', { reason: 'Broadcast payload must be a map' });
        return;
      }
      out = { kind: 'json', event: 'broadcast', payload: msg.payload };
      size = Buffer.byteLength(JSON.stringify(msg.payload));
    }
    if (size > this.rt.maxPayloadBytes) {
      if (ch.ackBroadcast) this.reply(msg.joinRef, msg.ref, msg.topic, 'error', { reason: 'Payload size exceeded' });
      return;
    }
    if (ch.isPrivate) {
      if (ch.write.broadcast === undefined) {
        try {
          const w = await writePolicies(this.rt.pool, ch.claims, ch.subTopic, ['broadcast']);
          ch.write.broadcast = w.broadcast;
        } catch (err) {
          this.rt.log(`UnableToSetPolicies on ${ch.topic}: ${(err as Error).message}`);
          return;
        }
      }
      // Not allowed to write: Realtime drops the message without a reply.
      if (!ch.write.broadcast || ch.closed) return;
    }
    this.rt.hub.publish(ch.key, out, {
      except: ch.selfBroadcast ? undefined : ch,
      accept: ch.isPrivate ? (s) => s.canReadBroadcast() : undefined,
    });
    if (ch.ackBroadcast && msg.ref !== null) this.reply(msg.joinRef, msg.ref, msg.topic, 'ok', {});
  }

  // ---------------------------------------------------------------- presence

  /** Sends a `presence_diff` to the channels of `key` allowed to read presence. */
  publishPresenceDiff(key: string, diff: PresenceDiff): void {
    this.rt.hub.publish(key, { kind: 'json', event: 'presence_diff', payload: diff }, { accept: (s) => s.canReadPresence() });
  }

  private async presence(ch: Channel, msg: PhxMessage): Promise<void> {
    const ok = () => this.reply(msg.joinRef, msg.ref, msg.topic, 'ok', {});
    const error = (response: unknown = {}) => this.reply(msg.joinRef, msg.ref, msg.topic, 'error', response);
    if (!isObj(msg.payload)) return error({ reason: 'Presence payload must be a map' });
    if (typeof msg.payload.event !== 'string') return ok();
    const event = msg.payload.event.toLowerCase();
    if (event === 'untrack') {
      const diff = this.rt.presence.untrack(ch.key, ch);
      ok();
      if (diff) this.publishPresenceDiff(ch.key, diff);
      return;
    }
    if (event !== 'track') return error({ reason: `Unknown presence event: ${msg.payload.event}` });
    const meta = msg.payload.payload === undefined ? {} : msg.payload.payload;
    if (!isObj(meta)) return error({ reason: 'Presence track payload must be a map' });
    if (Buffer.byteLength(JSON.stringify(meta)) > this.rt.maxPayloadBytes) {
      this.shutdown(ch, 'Track message size exceeded');
      return;
    }
    if (ch.isPrivate && ch.write.presence === undefined) {
      try {
        if (ch.read && ch.read.presence === null) {
          const r = await readPolicies(this.rt.pool, ch.claims, ch.subTopic, true);
          ch.read.presence = r.presence;
        }
        const w = await writePolicies(this.rt.pool, ch.claims, ch.subTopic, ['presence']);
        ch.write.presence = w.presence;
      } catch (err) {
        this.rt.log(`UnableToSetPolicies on ${ch.topic}: ${(err as Error).message}`);
        return error();
      }
    }
    if (ch.closed) return;
    if (ch.isPrivate && !ch.write.presence) return error();
    const current = this.rt.presence.trackedPayload(ch.key, ch);
    if (current && JSON.stringify(current) === JSON.stringify(meta)) return ok();
    const diff = this.rt.presence.track(ch.key, ch, ch.presenceKey, meta);
    ch.presenceEnabled = true;
    ok();
    this.publishPresenceDiff(ch.key, diff);
  }

  // ---------------------------------------------------------------- access_token

  private async accessToken(ch: Channel, msg: PhxMessage): Promise<void> {
    const token = isObj(msg.payload) ? msg.payload.access_token : undefined;
    if (typeof token !== 'string' || token.startsWith('sb_') || token === ch.accessToken) return;
    const checked = await checkToken(token, this.rt.config.jwtSecret);
    if (ch.closed) return;
    if (!checked.ok) return this.shutdown(ch, checked.message);
    const previous = ch.read;
    ch.accessToken = token;
    ch.claims = checked.claims;
    ch.exp = checked.exp;
    if (ch.isPrivate) {
      let next: ReadPolicies;
      try {
        next = await readPolicies(this.rt.pool, ch.claims, ch.subTopic, ch.presenceEnabled);
      } catch {
        return this.shutdown(ch, 'Realtime was unable to connect to the project database');
      }
      if (ch.closed) return;
      if (!next.broadcast && !next.presence) {
        return this.shutdown(ch, `You do not have permissions to read from this Channel topic: ${ch.subTopic}`);
      }
      if ((previous?.broadcast && !next.broadcast) || (previous?.presence && next.presence === false)) {
        return this.shutdown(ch, `You no longer have permission to read from this Channel topic: ${ch.subTopic}`);
      }
      ch.read = next;
      ch.write = {};
    }
    this.scheduleTokenCheck(ch);
  }

  /** Closes the socket (idle timeout or shutdown). */
  terminate(code = 1000, reason = ''): void {
    try {
      if (code === 1006) this.ws.terminate();
      else this.ws.close(code, reason);
    } catch {
      this.ws.terminate();
    }
    this.onClose();
  }
}
