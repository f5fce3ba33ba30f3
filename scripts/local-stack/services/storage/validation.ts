/**
 * Input rules of storage-api (src/storage/limits.ts, src/storage/uploader.ts,
 * src/storage/storage.ts): object keys, bucket names, file size limits, MIME types.
 */
import { ERRORS } from './errors.ts';

/** Global upload limit in bytes (storage-api's default FILE_SIZE_LIMIT on Supabase Free: 50 MiB). */
export const GLOBAL_FILE_SIZE_LIMIT = 50 * 1024 * 1024;

// S3-safe characters, as storage-api accepts them (limits.ts VALID_OBJECT_KEY / VALID_BUCKET_NAME).
const VALID_OBJECT_KEY = /^[A-Za-z0-9_/!.*'() &$=@;:+,?-]+$/;
const VALID_BUCKET_NAME = /^[A-Za-z0-9_!.*'() &$=@;:+,?-]+$/;

/**
 * Asserts an object key is valid. Beyond storage-api's character set, keys that would
 * escape or alias paths on the local disk store are refused: `.`/`..` segments, empty
 * segments (`a//b`, leading or trailing `/`).
 * Errors: 400 InvalidKey.
 */
export function mustBeValidKey(key: string | undefined): asserts key is string {
  if (!key || key.length > 1024 || !VALID_OBJECT_KEY.test(key)) throw ERRORS.invalidKey(key ?? '');
  for (const segment of key.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') throw ERRORS.invalidKey(key);
  }
}

/** True when `name` is a valid bucket name (1–100 S3-safe characters, not `.`/`..`). */
export function isValidBucketName(name: unknown): name is string {
  return (
    typeof name === 'string' &&
    name.length > 0 &&
    name.length < 101 &&
    name.trim() === name &&
    VALID_BUCKET_NAME.test(name) &&
    name !== '.' &&
    name !== '..'
  );
}

/** Asserts a bucket name is valid. Errors: 400 InvalidBucketName. */
export function mustBeValidBucketName(name: unknown): asserts name is string {
  if (!isValidBucketName(name)) throw ERRORS.invalidBucketName();
}

/**
 * Parses a bucket's file size limit: a number of bytes or a string like `20GB`, `1.5MB`,
 * `30KB`, `3B` (decimal units, as storage-api's parseFileSizeToBytes). `null` clears it.
 * Errors: 400 on bad format; 413 when above the global limit (storage-api's parseMaxSizeLimit).
 */
export function parseFileSizeLimit(value: unknown): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  let bytes: number;
  if (typeof value === 'number') {
    bytes = value;
  } else if (typeof value === 'string') {
    const m = /^([0-9]+(?:\.[0-9]+)?)(gb|mb|kb|b)$/i.exec(value.trim());
    if (!m) throw ERRORS.invalidFileSizeLimit();
    const n = Number(Number.parseFloat(m[1]!).toPrecision(3));
    const unit = m[2]!.toUpperCase();
    bytes = unit === 'GB' ? n * 1e9 : unit === 'MB' ? n * 1e6 : unit === 'KB' ? n * 1e3 : n;
  } else {
    throw ERRORS.invalidFileSizeLimit();
  }
  if (!Number.isFinite(bytes) || bytes < 0) throw ERRORS.invalidFileSizeLimit();
  bytes = Math.floor(bytes);
  if (bytes > GLOBAL_FILE_SIZE_LIMIT) throw ERRORS.entityTooLarge();
  return bytes;
}

/**
 * Validates a bucket's allowed MIME types (`type/subtype`, `type/*`, optional charset).
 * Errors: 415 invalid_mime_type for the first bad entry.
 */
export function validateAllowedMimeTypes(types: unknown): string[] | null | undefined {
  if (types === undefined) return undefined;
  if (types === null) return null;
  if (!Array.isArray(types)) throw ERRORS.badRequest('body/allowed_mime_types must be array');
  const out: string[] = [];
  for (const t of types) {
    if (typeof t !== 'string') throw ERRORS.badRequest('body/allowed_mime_types must be array of strings');
    if (!t) continue;
    if (t.length > 1000 || !/^([a-zA-Z0-9\-+.]+)\/([a-zA-Z0-9\-+.]+)(;\s*charset=[a-zA-Z0-9-]+)?$|\*$/.test(t)) {
      throw ERRORS.invalidMimeType(t);
    }
    out.push(t);
  }
  return out;
}

/**
 * Checks an upload's content type against the bucket's allowed types (exact or `type/*`).
 * Empty/absent list allows everything. The comparison is storage-api's (uploader.ts
 * validateMimeType): split on `/`, case-sensitive, parameters not stripped, so
 * `text/plain;charset=UTF-8` only matches `text/*` or that exact string.
 * Errors: 415 invalid_mime_type.
 */
export function assertMimeTypeAllowed(mimeType: string, allowed: string[] | null | undefined): void {
  if (!allowed || allowed.length === 0) return;
  const [type, sub] = mimeType.split('/');
  if (!type || sub === undefined) throw ERRORS.invalidMimeType(mimeType);
  for (const entry of allowed) {
    const [aType, aSub] = entry.split('/');
    if (aType === type && (aSub === '*' || aSub === sub)) return;
  }
  throw ERRORS.invalidMimeType(mimeType);
}

/** Effective per-upload limit: the bucket's limit capped by the global one. */
export function maxUploadSize(bucketLimit: number | string | null | undefined): number {
  const n = bucketLimit === null || bucketLimit === undefined ? NaN : Number(bucketLimit);
  return Number.isFinite(n) ? Math.min(n, GLOBAL_FILE_SIZE_LIMIT) : GLOBAL_FILE_SIZE_LIMIT;
}
