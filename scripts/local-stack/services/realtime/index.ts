/**
 * The local stack's Realtime service (mounted by the gateway at `/realtime/v1`): a Phoenix
 * channel server for `@supabase/realtime-js` (WebSocket `/realtime/v1/websocket`, serializers
 * vsn 1.0.0 and 2.0.0) with Broadcast, Presence, private channels authorised by RLS on
 * realtime.messages, Broadcast from Database and postgres_changes (logical replication), plus
 * the REST broadcast API (`/realtime/v1/api/broadcast`). See issue 3 (Realtime) and the modules
 * next to this file.
 *
 * Settings (environment of the daemon):
 * - TEAMWERK_REALTIME_IDLE_TIMEOUT_MS: a socket that sends nothing (no heartbeat) for this long
 *   is closed and its presences leave (default 60000, like Phoenix's websocket timeout).
 *   A client may ask for a shorter timeout with the connection parameter `idle_timeout_ms`
 *   (local stack only; used by tests).
 * - TEAMWERK_REALTIME_MAX_PAYLOAD_KB: largest broadcast / presence payload (default 256).
 *
 * Known differences to hosted Realtime: no rate limits (events/joins per second) besides 100
 * channels per socket; realtime.messages is a plain table (hosted: daily partitions), trimmed to
 * 3 days; postgres_changes bindings are subscribed before the join reply (hosted: right after);
 * the legacy topic form `realtime:<schema>:<table>` without `config` is not supported.
 */
import type { IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { StackContext, HttpService } from '../../types.ts';
import { checkToken } from './authz.ts';
import { Hub, hubKey } from './fanout.ts';
import { PresenceRegistry } from './presence.ts';
import { SUPPORTED_VSN, type Vsn } from './protocol.ts';
import { ReplicationListener } from './replication.ts';
import { PgChangesDispatcher } from './pgchanges.ts';
import { handleRest } from './rest.ts';
import { Connection, type Channel, type RealtimeRuntime } from './socket.ts';

/** Largest WebSocket frame accepted; bigger frames close the socket with 1009 (message too big). */
const MAX_FRAME_BYTES = 1024 * 1024;

function rejectUpgrade(socket: Duplex, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
  );
}

/**
 * Creates the Realtime service. Starts the logical replication stream (postgres_changes and
 * Broadcast from Database); if the database refuses it, the service still serves Broadcast and
 * Presence and keeps retrying in the background.
 */
export async function createRealtimeService(ctx: StackContext): Promise<HttpService> {
  const log = (message: string, extra?: unknown) => ctx.log('realtime', message, extra);
  const defaultIdleMs = Number.parseInt(process.env.TEAMWERK_REALTIME_IDLE_TIMEOUT_MS ?? '', 10) || 60_000;
  const maxPayloadKb = Number.parseInt(process.env.TEAMWERK_REALTIME_MAX_PAYLOAD_KB ?? '', 10) || 256;
  const rt: RealtimeRuntime = {
    config: ctx.config,
    pool: ctx.pool,
    log,
    hub: new Hub<Channel>(),
    presence: new PresenceRegistry<Channel>(),
    maxPayloadBytes: maxPayloadKb * 1024,
    replicationReady: () => replication.streaming,
  };
  const connections = new Set<Connection>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false, clientTracking: false });

  const pgChanges = new PgChangesDispatcher(ctx.pool, log);
  const replication = new ReplicationListener(ctx.config, ctx.pool, {
    log,
    onChange: (change) => pgChanges.dispatch(change, rt.hub.all()),
    onBroadcast: (m) => {
      rt.hub.publish(
        hubKey(m.topic, m.private),
        { kind: 'user', userEvent: m.event, encoding: m.encoding, body: m.body, metadata: { id: m.id } },
        { accept: (s) => s.canReadBroadcast() && !s.replayed?.has(m.id) },
      );
    },
  });
  let closing = false;
  const startReplication = async (attempt: number): Promise<void> => {
    try {
      await replication.start();
      log(`replication streaming (slot ${replication.slotName})`);
    } catch (err) {
      log(`replication start failed (attempt ${attempt}): ${(err as Error).message}`);
      if (attempt < 30 && !closing) setTimeout(() => void startReplication(attempt + 1), Math.min(10_000, 500 * attempt)).unref();
    }
  };
  await startReplication(1);
  const schemaCheck = await ctx.pool
    .query<{ ok: boolean }>(`select to_regclass('realtime.messages') is not null as ok`)
    .catch(() => ({ rows: [{ ok: false }] }));
  if (!schemaCheck.rows[0]?.ok) {
    log('realtime.messages is missing (cluster created before bootstrap/30-realtime.sql): private channels and Broadcast from Database need `npm run stack:reset`');
  }

  // Like Realtime's janitor (which drops daily partitions), keep realtime.messages to 3 days.
  const purge = () =>
    void ctx.pool
      .query(`delete from realtime.messages where inserted_at < now() - interval '3 days'`)
      .catch((err: Error) => log(`messages cleanup failed: ${err.message}`));
  purge();
  const janitor = setInterval(purge, 60 * 60_000);
  janitor.unref();

  // Idle sockets (no heartbeat) are closed, which makes their presences leave.
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const conn of connections) {
      if (now - conn.lastSeen > conn.idleTimeoutMs) {
        log('closing idle socket', { idleMs: now - conn.lastSeen });
        conn.terminate(1006);
      }
    }
  }, 250);
  sweeper.unref();

  function accept(ws: WebSocket, vsn: Vsn, apikey: string, idleMs: number): void {
    const conn = new Connection(rt, ws, vsn, apikey, idleMs);
    connections.add(conn);
    ws.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
      const buf = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
      conn.onFrame(buf, isBinary);
    });
    ws.on('close', () => {
      connections.delete(conn);
      conn.onClose();
    });
    ws.on('error', (err: Error) => {
      log(`socket error: ${err.message}`);
    });
  }

  return {
    async handle(req, res, subpath) {
      await handleRest(rt, req, res, subpath);
    },

    upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, subpath: string) {
      socket.on('error', () => undefined);
      if (closing) return rejectUpgrade(socket, 503, { error: 'Realtime is restarting, please standby' });
      if (subpath !== '/websocket' && subpath !== '/websocket/') return rejectUpgrade(socket, 404, { error: 'Not Found' });
      const url = new URL(req.url ?? '/', 'http://localhost');
      const vsn = (url.searchParams.get('vsn') ?? '1.0.0') as Vsn;
      if (!SUPPORTED_VSN.includes(vsn)) {
        return rejectUpgrade(socket, 403, { error: `The client's requested transport version "${vsn}" does not match server's version requirements of ${SUPPORTED_VSN.join(', ')}` });
      }
      const apikey = url.searchParams.get('apikey') ?? (typeof req.headers['x-api-key'] === 'string' ? req.headers['x-api-key'] : null);
      if (!apikey) return rejectUpgrade(socket, 401, { error: 'API key is missing' });
      const requestedIdle = Number.parseInt(url.searchParams.get('idle_timeout_ms') ?? '', 10);
      const idleMs = Number.isFinite(requestedIdle) && requestedIdle >= 500 ? Math.min(requestedIdle, defaultIdleMs) : defaultIdleMs;
      void checkToken(apikey, ctx.config.jwtSecret).then((checked) => {
        if (!checked.ok) {
          const message = checked.message.startsWith('Token has expired') ? 'Token has expired' : checked.message;
          return rejectUpgrade(socket, 401, { error: message });
        }
        if (socket.destroyed) return;
        wss.handleUpgrade(req, socket, head, (ws) => accept(ws, vsn, apikey, idleMs));
      });
    },

    async close() {
      closing = true;
      clearInterval(sweeper);
      clearInterval(janitor);
      for (const conn of connections) conn.terminate(1001, 'server shutting down');
      connections.clear();
      wss.close();
      await replication.close();
    },
  };
}
