/**
 * Reads an upload body the way storage-api's `fileUploadFromRequest` does (uploader.ts):
 * - `multipart/form-data`: the first file part is the object (storage-js sends it under the
 *   field name ''), fields `cacheControl` (seconds → `max-age=<n>`), `contentType`,
 *   `metadata`/`userMetadata` (JSON user metadata);
 * - any other content type: the raw body is the object, its `content-type` the MIME type,
 *   `cache-control` header as is, `x-metadata` header base64 JSON user metadata.
 * The bytes land in a temp file (see DiskStore.writeTemp); the caller places or discards it.
 */
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import type { DiskStore, TempFile } from './disk.ts';
import { ERRORS, StorageError } from './errors.ts';
import { assertMimeTypeAllowed } from './validation.ts';

export interface ReceivedUpload {
  tmp: TempFile;
  mimeType: string;
  cacheControl: string;
  userMetadata: Record<string, unknown> | undefined;
}

export interface UploadLimits {
  /** Maximum object size in bytes. */
  maxSize: number;
  /** Bucket's allowed MIME types (empty: any). */
  allowedMimeTypes: string[] | null;
  objectName: string;
}

const MAX_USER_METADATA_BYTES = 1024 * 1024;

/** Reads the rest of a request body and drops it (so the client can read our answer). */
export async function drain(req: IncomingMessage, capBytes = 256 * 1024 * 1024): Promise<void> {
  if (req.readableEnded || req.destroyed) return;
  await new Promise<void>((resolve) => {
    let seen = 0;
    req.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > capBytes) req.destroy();
    });
    req.once('end', resolve);
    req.once('close', resolve);
    req.once('error', () => resolve());
    req.resume();
  });
}

/**
 * storage-api's isEmptyFolder (src/storage/limits.ts): a key ending in `.emptyFolderPlaceholder`
 * marks an empty folder; its upload skips the MIME check and may hold 0 bytes (uploader.ts
 * fileUploadFromRequest: maxFileSize stays 0).
 */
export function isEmptyFolderPlaceholder(name: string): boolean {
  return name.endsWith('.emptyFolderPlaceholder');
}

/** Decodes the `x-metadata` header (base64 JSON); undefined when absent or malformed, as storage-api. */
function parseUserMetadataHeader(value: string | string[] | undefined): Record<string, unknown> | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Receives the upload body into a temp file.
 * Errors (the body is always fully read first): 413 EntityTooLarge past `maxSize`,
 * 415 invalid_mime_type when not allowed by the bucket or when the bytes are not of the
 * declared type (content.ts), 400 when no file / unreadable form.
 */
export async function receiveUpload(req: IncomingMessage, disk: DiskStore, limits: UploadLimits): Promise<ReceivedUpload> {
  const contentType = req.headers['content-type'] ?? '';
  const checkMime = !isEmptyFolderPlaceholder(limits.objectName);
  if (contentType.startsWith('multipart/form-data')) return receiveMultipart(req, disk, limits, checkMime);

  try {
    const mimeType = contentType || 'application/octet-stream';
    const cacheControl = typeof req.headers['cache-control'] === 'string' ? req.headers['cache-control'] : 'no-cache';
    if (checkMime) assertMimeTypeAllowed(mimeType, limits.allowedMimeTypes);
    const userMetadata = parseUserMetadataHeader(req.headers['x-metadata']);
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limits.maxSize) throw ERRORS.entityTooLarge();
    const tmp = await disk.writeTemp(req, limits.maxSize);
    return { tmp, mimeType, cacheControl, userMetadata };
  } catch (err) {
    await drain(req);
    throw err;
  }
}

async function receiveMultipart(
  req: IncomingMessage,
  disk: DiskStore,
  limits: UploadLimits,
  checkMime: boolean,
): Promise<ReceivedUpload> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: { files: 1, fields: 10, fileSize: limits.maxSize, fieldSize: MAX_USER_METADATA_BYTES + 1 } });
  } catch {
    await drain(req);
    throw ERRORS.noContentProvided('Malformed multipart/form-data body');
  }
  const fields = new Map<string, string>();
  const state: {
    failure: unknown;
    file: Promise<{ tmp: TempFile; mimeType: string; truncated: () => boolean } | null> | null;
    stream: busboy.FileStream | null;
  } = { failure: null, file: null, stream: null };

  parser.on('field', (name, value) => {
    fields.set(name, value);
  });
  parser.on('file', (_name, stream, info) => {
    if (state.file) {
      stream.resume();
      return;
    }
    const mimeType = fields.get('contentType') || info.mimeType;
    try {
      if (checkMime) assertMimeTypeAllowed(mimeType, limits.allowedMimeTypes);
    } catch (err) {
      state.failure ??= err;
      stream.resume();
      state.file = Promise.resolve(null);
      return;
    }
    state.stream = stream;
    state.file = disk
      .writeTemp(stream, Number.MAX_SAFE_INTEGER)
      .then((tmp) => ({ tmp, mimeType, truncated: () => stream.truncated }))
      .catch((err: unknown) => {
        state.failure ??= err;
        return null;
      });
  });

  await new Promise<void>((resolve) => {
    parser.on('close', resolve);
    parser.on('error', (err) => {
      state.failure ??= err instanceof StorageError ? err : ERRORS.noContentProvided(err.message);
      req.unpipe(parser);
      resolve();
    });
    // the client went away mid-body: stop the parser and the file stream so nothing waits forever
    const abort = () => {
      state.failure ??= ERRORS.noContentProvided('Request stream closed before upload could complete');
      req.unpipe(parser);
      state.stream?.destroy(state.failure as Error);
      parser.destroy();
      resolve();
    };
    req.on('error', abort);
    req.on('close', () => {
      if (!req.readableEnded) abort();
    });
    req.pipe(parser);
  });
  const file = state.file ? await state.file : null;
  await drain(req);

  try {
    if (state.failure) throw state.failure instanceof StorageError ? state.failure : ERRORS.noContentProvided();
    if (!file) throw ERRORS.noContentProvided();
    if (file.truncated() || file.tmp.size > limits.maxSize) throw ERRORS.entityTooLarge();
    if (checkMime) assertMimeTypeAllowed(file.mimeType, limits.allowedMimeTypes);
    const metadataField = fields.get('metadata') ?? fields.get('userMetadata');
    let userMetadata: Record<string, unknown> | undefined;
    if (metadataField !== undefined) {
      if (Buffer.byteLength(metadataField, 'utf8') > MAX_USER_METADATA_BYTES) throw ERRORS.entityTooLarge('user_metadata');
      try {
        const parsed: unknown = JSON.parse(metadataField);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) userMetadata = parsed as Record<string, unknown>;
      } catch {
        // storage-api ignores malformed user metadata
      }
    }
    const cacheTime = fields.get('cacheControl');
    return { tmp: file.tmp, mimeType: file.mimeType, cacheControl: cacheTime ? `max-age=${cacheTime}` : 'no-cache', userMetadata };
  } catch (err) {
    await disk.discard(file?.tmp);
    throw err;
  }
}
