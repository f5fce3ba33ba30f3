/**
 * Responses: JSON, errors in storage-api's shape, and object bytes with the headers
 * storage-api's asset/head/info renderers set (src/storage/renderer/*.ts).
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '../../http.ts';
import type { StorageError } from './errors.ts';

/** Object row columns the renderers need. */
export interface ObjectRow {
  id: string;
  name: string;
  bucket_id: string;
  version: string | null;
  metadata: Record<string, unknown> | null;
  user_metadata: Record<string, unknown> | null;
  created_at: Date | string | null;
  updated_at: Date | string | null;
  last_accessed_at?: Date | string | null;
  owner?: string | null;
  owner_id?: string | null;
}

/** Sends a storage-api error body with its HTTP status. */
export function sendError(res: ServerResponse, err: StorageError): void {
  sendJson(res, err.httpStatus, err.render(), err.statusCode === 404 ? { 'cache-control': 'no-store' } : {});
}

/** The renderer's answer when the bytes are gone although the row exists. */
function sendAssetNotFound(res: ServerResponse): void {
  sendJson(res, 400, { error: 'Not found', message: 'The resource was not found', statusCode: '404', code: 'NoSuchKey' }, { 'cache-control': 'no-store' });
}

function contentDisposition(download: string | null): string | undefined {
  if (download === null) return undefined;
  if (download === '') return 'attachment;';
  const encoded = encodeURIComponent(download);
  return `attachment; filename=${encoded}; filename*=UTF-8''${encoded}`;
}

function lastModifiedOf(metadata: Record<string, unknown>): string | undefined {
  const raw = metadata.lastModified;
  if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
  const d = new Date(raw);
  return Number.isNaN(d.getTime()) ? undefined : d.toUTCString();
}

/**
 * Streams an object's bytes (GET) or only its headers (HEAD) with the stored content type (HTML
 * as text/plain, as storage-api; no `X-Content-Type-Options`, as storage-api's renderer). Supports a single `Range: bytes=a-b` (206). `expires`
 * (signed URLs) replaces Cache-Control with Expires.
 */
export async function sendObject(
  req: IncomingMessage,
  res: ServerResponse,
  filePath: string,
  row: Pick<ObjectRow, 'metadata'>,
  options: { download: string | null; expires?: string; head: boolean },
): Promise<void> {
  let size: number;
  try {
    const st = await fsp.stat(filePath);
    if (!st.isFile()) throw new Error('not a file');
    size = st.size;
  } catch {
    sendAssetNotFound(res);
    return;
  }
  const metadata = row.metadata ?? {};
  const stored = typeof metadata.mimetype === 'string' && metadata.mimetype ? metadata.mimetype : 'application/octet-stream';
  const headers: Record<string, string> = {
    'accept-ranges': 'bytes',
    // storage-api serves HTML as text/plain (src/storage/renderer/renderer.ts normalizeContentType)
    'content-type': stored.includes('text/html') ? 'text/plain' : stored,
    'x-robots-tag': 'none',
  };
  if (typeof metadata.eTag === 'string') headers.etag = metadata.eTag;
  const lastModified = lastModifiedOf(metadata);
  if (lastModified) headers['last-modified'] = lastModified;
  if (options.expires) headers.expires = options.expires;
  else if (typeof metadata.cacheControl === 'string') headers['cache-control'] = metadata.cacheControl;
  const disposition = contentDisposition(options.download);
  if (disposition) headers['content-disposition'] = disposition;

  let start = 0;
  let end = size - 1;
  let status = 200;
  const range = req.headers.range;
  if (typeof range === 'string' && !options.head) {
    const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    if (m && (m[1] || m[2])) {
      if (m[1]) {
        start = Number(m[1]);
        end = m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
      } else {
        start = Math.max(size - Number(m[2]), 0);
      }
      if (start > end || start >= size) {
        res.writeHead(416, { 'content-range': `bytes */${size}`, 'content-length': '0' });
        res.end();
        return;
      }
      status = 206;
      headers['content-range'] = `bytes ${start}-${end}/${size}`;
    }
  }
  headers['content-length'] = String(size === 0 ? 0 : end - start + 1);
  res.writeHead(status, headers);
  if (options.head || size === 0) {
    res.end();
    return;
  }
  const stream = fs.createReadStream(filePath, { start, end });
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

/**
 * The body of GET /object/info/* (storage-api's info renderer): system metadata flattened to
 * size/content_type/cache_control/etag, `metadata` = the user metadata, dates as stored.
 */
export function infoBody(row: ObjectRow): Record<string, unknown> {
  const md = row.metadata ?? {};
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    bucket_id: row.bucket_id,
    size: typeof md.size === 'number' ? md.size : null,
    content_type: typeof md.mimetype === 'string' ? md.mimetype : null,
    cache_control: typeof md.cacheControl === 'string' ? md.cacheControl : null,
    etag: typeof md.eTag === 'string' ? md.eTag : null,
    metadata: row.user_metadata,
    last_modified: row.updated_at,
    created_at: row.created_at,
  };
}
