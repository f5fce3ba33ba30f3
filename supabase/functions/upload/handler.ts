/**
 * `upload` (signed-in users): the one way files reach Storage (issue 29 §5). Hosted storage-api
 * checks only the declared Content-Type; this function also reads the bytes (file-signature.ts)
 * and only then stores the object, with the caller's own session so Storage's RLS policies still
 * decide who may write where. The policies on `storage.objects` accept an insert only with an
 * upload grant this function creates for that caller, bucket and object name a moment before
 * (`rpc/grant_upload`, service role only; the storage schema), so a file sent straight to the
 * Storage API is refused; the object name gets a random part, so nobody can use a grant meant for
 * another upload.
 *
 * POST multipart/form-data: `bucket` (e.g. `avatars`), `path` (`<folder>/…/<file name>`, as the
 * bucket's policies expect it), `file` (the bytes, with their Content-Type).
 * 201 `{ bucket, path, size, mimeType }`: `path` is the stored name (the file name gets a random
 * prefix). Errors: 400 `validation_failed`, 404 `bucket_not_found`, 413 `payload_too_large` (the
 * bucket's limit), 415 `unsupported_media_type` (type not allowed in the bucket) or
 * `content_mismatch` (the bytes are of another type), 403 `forbidden` (the bucket's policies refuse
 * the caller), 401 without a session.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { HttpError, json, withErrors } from '../_shared/http.ts';
import type { Caller } from '../_shared/supabase.ts';
import { bytesMatchType, essence } from '../_shared/file-signature.ts';

/** Largest body the function reads at all (storage's global limit in config.toml is 50 MiB). */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

/** Dependencies of the upload function. */
export interface UploadDeps {
  resolveCaller: (req: Request) => Promise<Caller>;
  /** Service-role client: bucket settings and upload grants. */
  admin: SupabaseClient;
  /** A client acting as the caller (their JWT), so Storage's RLS decides. */
  asCaller: (accessToken: string) => SupabaseClient;
  /** Random part of stored names (tests pass a fixed one). */
  randomToken?: () => string;
}

// deno-lint-ignore no-control-regex -- control characters are what the pattern refuses
const SEGMENT = /^[^/\\\u0000-\u001f]{1,200}$/;

/** `path` split into folder and file name. Errors: 400 for an empty, absolute or dot-segment path. */
export function splitPath(path: string): { folder: string; name: string } {
  const parts = path.split('/');
  if (path.length > 900 || parts.length < 2 || parts.some((p) => !SEGMENT.test(p) || p === '.' || p === '..')) {
    throw new HttpError(400, 'validation_failed', 'path must be "<folder>/…/<file name>" without empty, . or .. segments');
  }
  return { folder: parts.slice(0, -1).join('/'), name: parts.at(-1)! };
}

function defaultToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return Array.from(bytes, (b) => b.toString(36).padStart(2, '0')).join('').slice(0, 12);
}

/** Allowed by a bucket's MIME list as storage-api matches it (`type/*` or exact). */
function allowedType(mimeType: string, allowed: string[] | null | undefined): boolean {
  if (!allowed || allowed.length === 0) return true;
  const [type, sub] = essence(mimeType).split('/');
  return allowed.some((a) => {
    const [at, as] = a.toLowerCase().split('/');
    return at === type && (as === '*' || as === sub);
  });
}

/** Builds the request handler of `upload` over its dependencies. */
export function createUploadHandler(deps: UploadDeps): (req: Request) => Promise<Response> {
  const token = deps.randomToken ?? defaultToken;
  return withErrors('upload', async (req) => {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST');
    const caller = await deps.resolveCaller(req);
    if (caller.kind !== 'user') throw new HttpError(403, 'forbidden', 'Only signed-in users upload files');
    const length = Number(req.headers.get('content-length') ?? '0');
    if (length > MAX_UPLOAD_BYTES) throw new HttpError(413, 'payload_too_large', 'The file is too large');
    let form: FormData;
    try {
      form = await req.formData();
    } catch {
      throw new HttpError(400, 'validation_failed', 'Send multipart/form-data with bucket, path and file');
    }
    const bucket = form.get('bucket');
    const path = form.get('path');
    const file = form.get('file');
    if (typeof bucket !== 'string' || typeof path !== 'string' || !(file instanceof File)) {
      throw new HttpError(400, 'validation_failed', 'bucket, path and file are required');
    }
    const { folder, name } = splitPath(path);
    const mimeType = essence(file.type || 'application/octet-stream');

    const settings = await deps.admin.storage.getBucket(bucket);
    if (settings.error || !settings.data) throw new HttpError(404, 'bucket_not_found', `Bucket ${bucket} not found`);
    const limit = settings.data.file_size_limit;
    if (file.size > MAX_UPLOAD_BYTES || (typeof limit === 'number' && limit > 0 && file.size > limit)) {
      throw new HttpError(413, 'payload_too_large', 'The file is too large');
    }
    if (!allowedType(mimeType, settings.data.allowed_mime_types)) {
      throw new HttpError(415, 'unsupported_media_type', `mime type ${mimeType} is not supported`);
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (!(await bytesMatchType(bytes, mimeType))) {
      throw new HttpError(415, 'content_mismatch', `file content does not match mime type ${mimeType}`);
    }

    const stored = `${folder}/${token()}-${name}`;
    const grant = await deps.admin.rpc('grant_upload', { p_user_id: caller.userId, p_bucket_id: bucket, p_name: stored });
    if (grant.error) throw new Error(`grant_upload: ${grant.error.message}`);
    const upload = await deps.asCaller(caller.accessToken).storage.from(bucket).upload(stored, bytes, { contentType: mimeType, upsert: false });
    if (upload.error) {
      const status = Number((upload.error as { statusCode?: string | number }).statusCode ?? 0);
      if (status === 403 || /row-level security|unauthori[sz]ed/i.test(upload.error.message)) {
        throw new HttpError(403, 'forbidden', 'You may not upload here');
      }
      if (status === 413) throw new HttpError(413, 'payload_too_large', 'The file is too large');
      throw new Error(`storage upload: ${upload.error.message}`);
    }
    return json({ bucket, path: stored, size: bytes.length, mimeType }, 201);
  });
}
