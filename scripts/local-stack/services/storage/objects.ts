/**
 * Object routes of storage-api (src/http/routes/object/*) over the local disk backend.
 *
 * Authorisation follows storage-api: the caller's statements on storage.objects run with the
 * caller's role and claims (RLS decides; service_role bypasses), bucket lookups and
 * public/signed reads run as the superuser. Every change keeps row and bytes consistent: the
 * bytes are staged on disk inside the database transaction and restored when it rolls back.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { sendJson } from '../../http.ts';
import { signJwt, verifyJwt, JwtError } from '../../jwt.ts';
import { asCaller, asSuperuser, becomeSuperuser, ownerColumns, type Caller } from './caller.ts';
import type { StagedChange } from './disk.ts';
import { ERRORS, fromPgError, type StorageError } from './errors.ts';
import { infoBody, sendObject, type ObjectRow } from './respond.ts';
import { bool, int, jsonBody, str, strArray, type RouteRequest, type StorageContext } from './request.ts';
import { drain, isEmptyFolderPlaceholder, receiveUpload } from './upload.ts';
import { maxUploadSize, mustBeValidKey } from './validation.ts';

/** Lifetime of signed upload URLs in seconds (storage-api's default: 2 hours). */
export const SIGNED_UPLOAD_URL_EXPIRES_IN = 7200;

const OBJECT_COLUMNS = 'id, bucket_id, name, owner, owner_id, version, metadata, user_metadata, created_at, updated_at, last_accessed_at';

interface BucketRow {
  id: string;
  public: boolean | null;
  file_size_limit: string | number | null;
  allowed_mime_types: string[] | null;
}

async function findBucket(ctx: StorageContext, id: string): Promise<BucketRow | null> {
  const r = await ctx.pool.query<BucketRow>('select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1', [id]);
  return r.rows[0] ?? null;
}

async function selectObject(c: pg.PoolClient | pg.Pool, bucket: string, key: string): Promise<ObjectRow | null> {
  const r = await c.query<ObjectRow>(`select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`, [bucket, key]);
  return r.rows[0] ?? null;
}

/** Finds an object as the caller (RLS) or, with `caller` null, as the superuser. Errors: 404 not_found. */
async function findObject(ctx: StorageContext, caller: Caller | null, bucket: string, key: string, operation: string): Promise<ObjectRow> {
  mustBeValidKey(key);
  const row = caller
    ? await asCaller(ctx.pool, caller, operation, (c) => selectObject(c, bucket, key)).catch((err: unknown) => {
        throw fromPgError(err);
      })
    : await selectObject(ctx.pool, bucket, key);
  if (!row) throw ERRORS.noSuchKey();
  return row;
}

function isUpsert(r: RouteRequest): boolean {
  return r.req.headers['x-upsert'] === 'true';
}

function decodeUserMetadataHeader(value: string | string[] | undefined): Record<string, unknown> | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Inserts (or upserts) an object row without RETURNING, so only INSERT (and UPDATE) policies apply. */
async function writeObjectRow(
  c: pg.PoolClient,
  row: { id: string; bucket: string; key: string; owner: string | undefined; metadata: unknown; userMetadata: unknown; version: string },
  upsert: boolean,
): Promise<void> {
  const { owner, owner_id } = ownerColumns(row.owner);
  const values = [row.id, row.bucket, row.key, owner, owner_id, JSON.stringify(row.metadata), row.userMetadata === undefined ? null : JSON.stringify(row.userMetadata), row.version];
  const insert = `insert into storage.objects (id, bucket_id, name, owner, owner_id, metadata, user_metadata, version)
                  values ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8)`;
  if (!upsert) {
    await c.query(insert, values);
    return;
  }
  const ownerSet = row.owner !== undefined ? ', owner = excluded.owner, owner_id = excluded.owner_id' : '';
  await c.query(
    `${insert} on conflict (name, bucket_id) do update
       set metadata = excluded.metadata, user_metadata = excluded.user_metadata, version = excluded.version${ownerSet}`,
    values,
  );
}

function uploadError(err: unknown): StorageError {
  const mapped = fromPgError(err);
  return mapped.code === 'ResourceAlreadyExists' ? ERRORS.keyAlreadyExists() : mapped;
}

/**
 * Receives an upload and stores it: row written as the caller (or as the superuser for
 * signed uploads, `caller` null), bytes placed on disk before the commit.
 * Returns the object's id. Errors: 400 InvalidKey, 404 bucket, 409 Duplicate, 403 RLS,
 * 413, 415; the request body is always read to the end first.
 */
async function storeUpload(
  ctx: StorageContext,
  r: RouteRequest,
  options: { caller: Caller | null; owner: string | undefined; bucket: string; key: string; upsert: boolean; operation: string },
): Promise<string> {
  const { bucket, key } = options;
  let bucketRow: BucketRow | null;
  try {
    mustBeValidKey(key);
    bucketRow = await findBucket(ctx, bucket);
    if (!bucketRow) throw ERRORS.noSuchBucket();
  } catch (err) {
    await drain(r.req);
    throw err;
  }
  const upload = await receiveUpload(r.req, ctx.disk, {
    // an empty-folder placeholder may hold no bytes (storage-api uploader.ts: maxFileSize 0)
    maxSize: isEmptyFolderPlaceholder(key) ? 0 : maxUploadSize(bucketRow.file_size_limit),
    allowedMimeTypes: bucketRow.allowed_mime_types,
    objectName: key,
  });
  const metadata = {
    eTag: `"${upload.tmp.md5}"`,
    size: upload.tmp.size,
    mimetype: upload.mimeType,
    cacheControl: upload.cacheControl,
    lastModified: new Date().toISOString(),
    contentLength: upload.tmp.size,
    httpStatusCode: 200,
  };
  let staged: StagedChange | null = null;
  const run = async (c: pg.PoolClient): Promise<string> => {
    await writeObjectRow(
      c,
      { id: randomUUID(), bucket, key, owner: options.owner, metadata, userMetadata: upload.userMetadata, version: randomUUID() },
      options.upsert,
    );
    if (options.caller) await becomeSuperuser(c);
    const row = await selectObject(c, bucket, key);
    if (!row) throw ERRORS.internal();
    staged = await ctx.disk.place(upload.tmp, bucket, key);
    return row.id;
  };
  try {
    const id = options.caller ? await asCaller(ctx.pool, options.caller, options.operation, run) : await asSuperuser(ctx.pool, options.operation, run);
    await (staged as StagedChange | null)?.finish();
    return id;
  } catch (err) {
    await (staged as StagedChange | null)?.undo();
    await ctx.disk.discard(upload.tmp);
    throw uploadError(err);
  }
}

/** POST|PUT /object/:bucket/*key — upload (PUT = update, always upsert). Answers { Id, Key }. */
export async function uploadObject(ctx: StorageContext, r: RouteRequest, caller: Caller, bucket: string, key: string, method: 'POST' | 'PUT'): Promise<void> {
  const upsert = method === 'PUT' || isUpsert(r);
  const id = await storeUpload(ctx, r, {
    caller,
    owner: caller.owner,
    bucket,
    key,
    upsert,
    operation: method === 'PUT' ? 'storage.object.upload_update' : 'storage.object.upload',
  });
  sendJson(r.res, 200, { Id: id, Key: `${bucket}/${key}` });
}

/**
 * GET/HEAD of an object's bytes.
 * - `auto` (/object/:bucket/*): a missing or invalid JWT is anon; public buckets are read as
 *   the superuser, private ones as the caller;
 * - `authenticated`: same with a valid JWT required;
 * - `public`: public buckets only, no JWT.
 * Errors: 404 Bucket not found / Object not found (HTTP 400, as storage-api).
 */
export async function readObject(
  ctx: StorageContext,
  r: RouteRequest,
  caller: Caller | null,
  bucket: string,
  key: string,
  mode: 'auto' | 'authenticated' | 'public',
  head: boolean,
): Promise<void> {
  const b = await findBucket(ctx, bucket);
  if (mode === 'public' || !caller?.authenticated) {
    if (!b?.public) throw ERRORS.noSuchBucket();
  }
  if (!b) throw ERRORS.noSuchBucket();
  const operation = mode === 'public' ? 'storage.object.get_public' : 'storage.object.get_authenticated';
  const row = await findObject(ctx, b.public || !caller ? null : caller, bucket, key, operation);
  await sendObject(r.req, r.res, ctx.disk.objectPath(bucket, key), row, { download: r.url.searchParams.get('download'), head });
}

/** GET /object/info[/authenticated|/public]/:bucket/*key — storage-api's info body. */
export async function objectInfo(ctx: StorageContext, r: RouteRequest, caller: Caller | null, bucket: string, key: string, publicRoute: boolean): Promise<void> {
  const b = await findBucket(ctx, bucket);
  if (publicRoute || !caller?.authenticated) {
    if (!b?.public) throw ERRORS.noSuchBucket();
  }
  if (!b) throw ERRORS.noSuchBucket();
  const row = await findObject(ctx, b.public || publicRoute || !caller ? null : caller, bucket, key, 'storage.object.info_authenticated');
  const md = row.metadata ?? {};
  const headers: Record<string, string> = {};
  if (typeof md.eTag === 'string') headers.etag = md.eTag;
  if (typeof md.cacheControl === 'string') headers['cache-control'] = md.cacheControl;
  sendJson(r.res, 200, infoBody(row), headers);
}

/** POST /object/list/:bucket — body { prefix, limit?, offset?, sortBy?, search? } → storage.search rows. */
export async function listObjects(ctx: StorageContext, r: RouteRequest, caller: Caller, bucket: string): Promise<void> {
  const body = await jsonBody(r.req);
  let prefix = str(body, 'prefix');
  const limit = int(body, 'limit', 1) ?? 100;
  const offset = int(body, 'offset', 0) ?? 0;
  const search = str(body, 'search', true) ?? '';
  let column = 'name';
  let order = 'asc';
  if (body.sortBy !== undefined && body.sortBy !== null) {
    const sortBy = body.sortBy as Record<string, unknown>;
    if (typeof sortBy !== 'object' || Array.isArray(sortBy)) throw ERRORS.badRequest('body/sortBy must be object');
    if (typeof sortBy.column !== 'string') throw ERRORS.badRequest("body/sortBy must have required property 'column'");
    if (!['name', 'updated_at', 'created_at', 'last_accessed_at'].includes(sortBy.column)) {
      throw ERRORS.badRequest('body/sortBy/column must be equal to one of the allowed values');
    }
    column = sortBy.column;
    if (sortBy.order !== undefined) {
      if (sortBy.order !== 'asc' && sortBy.order !== 'desc') throw ERRORS.badRequest('body/sortBy/order must be equal to one of the allowed values');
      order = sortBy.order;
    }
  }
  if (prefix.length > 0 && !prefix.endsWith('/')) prefix = `${prefix}/`;
  const levels = `${prefix}${search}`.split('/').length;
  const rows = await asCaller(ctx.pool, caller, 'storage.object.list', async (c) =>
    (await c.query('select * from storage.search($1, $2, $3, $4, $5, $6, $7, $8)', [prefix, bucket, limit, levels, offset, search, column, order])).rows,
  ).catch((err: unknown) => {
    throw fromPgError(err);
  });
  sendJson(r.res, 200, rows);
}

/** DELETE /object/:bucket — body { prefixes: string[] } → the deleted objects (RLS decides which). */
export async function deleteObjects(ctx: StorageContext, r: RouteRequest, caller: Caller, bucket: string): Promise<void> {
  const body = await jsonBody(r.req);
  const names = strArray(body, 'prefixes');
  if (names.length > 1000) throw ERRORS.invalidRequest('Bulk object requests are limited to 1000 objects per request.');
  const staged: StagedChange[] = [];
  let deleted: ObjectRow[];
  try {
    deleted = await asCaller(ctx.pool, caller, 'storage.object.delete_many', async (c) => {
      const res = await c.query<ObjectRow>(
        `delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning ${OBJECT_COLUMNS}`,
        [bucket, names],
      );
      for (const row of res.rows) staged.push(await ctx.disk.remove(bucket, row.name));
      return res.rows;
    });
  } catch (err) {
    for (const s of staged.reverse()) await s.undo();
    throw fromPgError(err);
  }
  for (const s of staged) await s.finish();
  sendJson(r.res, 200, deleted);
}

/** DELETE /object/:bucket/*key. Errors: 404 when missing, 403 when RLS keeps the row. */
export async function deleteObject(ctx: StorageContext, r: RouteRequest, caller: Caller, bucket: string, key: string): Promise<void> {
  await findObject(ctx, null, bucket, key, 'storage.object.delete');
  let staged: StagedChange | null = null;
  try {
    await asCaller(ctx.pool, caller, 'storage.object.delete', async (c) => {
      const res = await c.query('delete from storage.objects where bucket_id = $1 and name = $2', [bucket, key]);
      if (!res.rowCount) throw ERRORS.accessDenied('Access denied');
      staged = await ctx.disk.remove(bucket, key);
    });
  } catch (err) {
    await (staged as StagedChange | null)?.undo();
    throw fromPgError(err);
  }
  await (staged as StagedChange | null)?.finish();
  sendJson(r.res, 200, { message: 'Successfully deleted' });
}

interface TransferBody {
  bucketId: string;
  sourceKey: string;
  destinationKey: string;
  destinationBucket: string;
}

async function transferBody(r: RouteRequest): Promise<{ body: Record<string, unknown>; t: TransferBody }> {
  const body = await jsonBody(r.req);
  const bucketId = str(body, 'bucketId');
  const sourceKey = str(body, 'sourceKey');
  const destinationKey = str(body, 'destinationKey');
  const destinationBucket = str(body, 'destinationBucket', true) || bucketId;
  mustBeValidKey(sourceKey);
  mustBeValidKey(destinationKey);
  return { body, t: { bucketId, sourceKey, destinationKey, destinationBucket } };
}

/**
 * POST /object/move — body { bucketId, sourceKey, destinationKey, destinationBucket? }.
 * The caller needs SELECT on the source and UPDATE (USING on the old row, WITH CHECK on the
 * new one), as on Supabase. Into another bucket neither the type nor the bytes are checked, as in
 * storage-api (src/storage/object.ts). Answers { message: 'Successfully moved', Id, Key }.
 */
export async function moveObject(ctx: StorageContext, r: RouteRequest, caller: Caller): Promise<void> {
  const { t } = await transferBody(r);
  const dest = await findBucket(ctx, t.destinationBucket);
  if (!dest) throw ERRORS.noSuchBucket();
  const same = t.bucketId === t.destinationBucket && t.sourceKey === t.destinationKey;
  const { owner, owner_id } = ownerColumns(caller.owner);
  let staged: StagedChange | null = null;
  let id: string;
  try {
    id = await asCaller(ctx.pool, caller, 'storage.object.move', async (c) => {
      const src = await selectObject(c, t.bucketId, t.sourceKey);
      if (!src) throw ERRORS.noSuchKey();
      const ownerSet = caller.owner !== undefined ? ', owner = $6, owner_id = $7' : '';
      const params: unknown[] = [t.destinationKey, t.destinationBucket, randomUUID(), t.bucketId, t.sourceKey];
      if (caller.owner !== undefined) params.push(owner, owner_id);
      const res = await c.query<{ id: string }>(
        `update storage.objects set name = $1, bucket_id = $2, version = $3${ownerSet}
          where bucket_id = $4 and name = $5 returning id`,
        params,
      );
      if (!res.rows[0]) throw ERRORS.noSuchKey();
      if (same) throw new SameObject(res.rows[0].id);
      staged = await ctx.disk.move(t.bucketId, t.sourceKey, t.destinationBucket, t.destinationKey);
      return res.rows[0].id;
    });
  } catch (err) {
    if (err instanceof SameObject) {
      id = err.id; // permission tested (and rolled back); nothing to move
    } else {
      await (staged as StagedChange | null)?.undo();
      throw fromPgError(err);
    }
  }
  await (staged as StagedChange | null)?.finish();
  sendJson(r.res, 200, { message: 'Successfully moved', Id: id, Key: t.destinationKey });
}

/** Thrown to roll back a move onto itself after the permission test. */
class SameObject extends Error {
  constructor(readonly id: string) {
    super('same object');
  }
}

/**
 * POST /object/copy — body { bucketId, sourceKey, destinationKey, destinationBucket?,
 * copyMetadata?, metadata? }, header x-upsert. The caller needs SELECT on the source and
 * INSERT (UPDATE too with upsert) on the destination; neither the type nor the bytes are checked,
 * as in storage-api (src/storage/object.ts copyObject).
 * Answers { Id, Key, ...object }.
 */
export async function copyObject(ctx: StorageContext, r: RouteRequest, caller: Caller): Promise<void> {
  const { body, t } = await transferBody(r);
  const copyMetadata = bool(body, 'copyMetadata') ?? true;
  const fileMetadata = (body.metadata && typeof body.metadata === 'object' ? body.metadata : {}) as Record<string, unknown>;
  const dest = await findBucket(ctx, t.destinationBucket);
  if (!dest) throw ERRORS.noSuchBucket();
  const src = await findObject(ctx, caller, t.bucketId, t.sourceKey, 'storage.object.copy');
  const tmp = await ctx.disk.copyToTemp(t.bucketId, t.sourceKey);
  const metadata: Record<string, unknown> = { ...(src.metadata ?? {}), lastModified: new Date().toISOString() };
  if (!copyMetadata) {
    if (typeof fileMetadata.cacheControl === 'string') metadata.cacheControl = fileMetadata.cacheControl;
    if (typeof fileMetadata.mimetype === 'string') metadata.mimetype = fileMetadata.mimetype;
  }
  // storage-api checks neither the type nor the bytes on copy (src/storage/object.ts copyObject)
  const userMetadata = copyMetadata ? src.user_metadata : decodeUserMetadataHeader(r.req.headers['x-metadata']);
  let staged: StagedChange | null = null;
  try {
    const row = await asCaller(ctx.pool, caller, 'storage.object.copy', async (c) => {
      await writeObjectRow(
        c,
        { id: randomUUID(), bucket: t.destinationBucket, key: t.destinationKey, owner: caller.owner, metadata, userMetadata: userMetadata ?? undefined, version: randomUUID() },
        isUpsert(r),
      );
      await becomeSuperuser(c);
      const dest = await selectObject(c, t.destinationBucket, t.destinationKey);
      if (!dest) throw ERRORS.internal();
      staged = await ctx.disk.place(tmp, t.destinationBucket, t.destinationKey);
      return dest;
    });
    await (staged as StagedChange | null)?.finish();
    sendJson(r.res, 200, { Id: row.id, Key: `${t.destinationBucket}/${t.destinationKey}`, ...row });
  } catch (err) {
    await (staged as StagedChange | null)?.undo();
    await ctx.disk.discard(tmp);
    throw uploadError(err);
  }
}

function expiresInOf(body: Record<string, unknown>): number {
  const v = body.expiresIn;
  if (v === undefined || v === null) throw ERRORS.badRequest("body must have required property 'expiresIn'");
  if (typeof v !== 'number' || !Number.isFinite(v)) throw ERRORS.badRequest('body/expiresIn must be integer');
  const seconds = Math.floor(v);
  if (seconds < 1 || seconds > 100 * 365 * 24 * 3600) throw ERRORS.invalidParameter('expiresIn');
  return seconds;
}

/** POST /object/sign/:bucket/*key — body { expiresIn } → { signedURL } (the caller must be able to SELECT it). */
export async function signUrl(ctx: StorageContext, r: RouteRequest, caller: Caller, bucket: string, key: string): Promise<void> {
  const body = await jsonBody(r.req);
  const expiresIn = expiresInOf(body);
  await findObject(ctx, caller, bucket, key, 'storage.object.sign');
  const url = `${bucket}/${key}`;
  const token = await signJwt({ url, scope: 'download' }, ctx.config.jwtSecret, expiresIn);
  sendJson(r.res, 200, { signedURL: `/object/sign/${url}?token=${token}` });
}

/** POST /object/sign/:bucket — body { expiresIn, paths } → [{ error, path, signedURL }]. */
export async function signUrls(ctx: StorageContext, r: RouteRequest, caller: Caller, bucket: string): Promise<void> {
  const body = await jsonBody(r.req);
  const expiresIn = expiresInOf(body);
  const paths = strArray(body, 'paths');
  const visible = await asCaller(ctx.pool, caller, 'storage.object.sign_many', async (c) =>
    (await c.query<{ name: string }>('select name from storage.objects where bucket_id = $1 and name = any($2::text[])', [bucket, paths])).rows,
  ).catch((err: unknown) => {
    throw fromPgError(err);
  });
  const names = new Set(visible.map((v) => v.name));
  const out = await Promise.all(
    paths.map(async (path) => {
      if (!names.has(path)) return { error: 'Either the object does not exist or you do not have access to it', path, signedURL: null };
      const url = `${bucket}/${path}`;
      const token = await signJwt({ url, scope: 'download' }, ctx.config.jwtSecret, expiresIn);
      return { error: null, path, signedURL: `/object/sign/${url}?token=${token}` };
    }),
  );
  sendJson(r.res, 200, out);
}

/** Verifies a signed-URL token for `bucket/key` and `scope`. Errors: 400 InvalidJWT / InvalidSignature. */
async function verifySignedToken(ctx: StorageContext, r: RouteRequest, bucket: string, key: string, scope: 'download' | 'upload'): Promise<Record<string, unknown>> {
  const token = r.url.searchParams.get('token');
  if (!token) throw ERRORS.badRequest("querystring must have required property 'token'");
  let payload: Record<string, unknown>;
  try {
    payload = await verifyJwt(token, ctx.config.jwtSecret);
  } catch (err) {
    throw ERRORS.invalidJwt(err instanceof JwtError && err.code === 'expired' ? 'jwt expired' : 'invalid signature');
  }
  const scoped = scope === 'upload'
    ? payload.scope === 'upload' || (payload.scope === undefined && 'upsert' in payload)
    : payload.scope === 'download' || (payload.scope === undefined && !('upsert' in payload));
  if (!scoped) throw ERRORS.invalidSignature(`Token is not scoped for ${scope}`);
  if (payload.url !== `${bucket}/${key}`) throw ERRORS.invalidSignature();
  return payload;
}

/** GET|HEAD /object/sign/:bucket/*key?token= — signed download (no JWT needed). */
export async function signedDownload(ctx: StorageContext, r: RouteRequest, bucket: string, key: string, head: boolean): Promise<void> {
  const payload = await verifySignedToken(ctx, r, bucket, key, 'download');
  const row = await findObject(ctx, null, bucket, key, 'storage.object.get_signed');
  const exp = typeof payload.exp === 'number' ? new Date(payload.exp * 1000).toUTCString() : undefined;
  await sendObject(r.req, r.res, ctx.disk.objectPath(bucket, key), row, { download: r.url.searchParams.get('download'), expires: exp, head });
}

/**
 * POST /object/upload/sign/:bucket/*key (x-upsert) → { url, token }. Tests the caller's INSERT
 * (and UPDATE with upsert) permission now; the upload itself is authorised by the token.
 */
export async function signUploadUrl(ctx: StorageContext, r: RouteRequest, caller: Caller, bucket: string, key: string): Promise<void> {
  await drain(r.req);
  mustBeValidKey(key);
  if (!(await findBucket(ctx, bucket))) throw ERRORS.noSuchBucket();
  const upsert = isUpsert(r);
  const contentType = r.req.headers['content-type'];
  await asCaller(
    ctx.pool,
    caller,
    'storage.object.sign_upload_url',
    (c) => writeObjectRow(c, { id: randomUUID(), bucket, key, owner: caller.owner, metadata: { mimetype: contentType }, userMetadata: undefined, version: '1' }, upsert),
    { rollback: true },
  ).catch((err: unknown) => {
    throw uploadError(err);
  });
  const url = `${bucket}/${key}`;
  const token = await signJwt({ owner: caller.owner, url, upsert, scope: 'upload' }, ctx.config.jwtSecret, SIGNED_UPLOAD_URL_EXPIRES_IN);
  sendJson(r.res, 200, { url: `/object/upload/sign/${url}?token=${token}`, token });
}

/** PUT /object/upload/sign/:bucket/*key?token= — upload with a signed upload token → { Key }. */
export async function uploadToSignedUrl(ctx: StorageContext, r: RouteRequest, bucket: string, key: string): Promise<void> {
  let payload: Record<string, unknown>;
  try {
    payload = await verifySignedToken(ctx, r, bucket, key, 'upload');
  } catch (err) {
    await drain(r.req);
    throw err;
  }
  await storeUpload(ctx, r, {
    caller: null,
    owner: typeof payload.owner === 'string' ? payload.owner : undefined,
    bucket,
    key,
    upsert: payload.upsert === true,
    operation: 'storage.object.upload_signed',
  });
  sendJson(r.res, 200, { Key: `${bucket}/${key}` });
}

interface ListV2Cursor {
  startAfter: string;
  sortOrder?: string;
  sortColumn?: string;
  sortColumnAfter?: string;
}

const CURSOR_PARTS: Record<string, keyof ListV2Cursor> = { l: 'startAfter', o: 'sortOrder', c: 'sortColumn', a: 'sortColumnAfter' };

function encodeCursor(cursor: ListV2Cursor): string {
  const lines = Object.entries(CURSOR_PARTS)
    .filter(([, field]) => cursor[field])
    .map(([k, field]) => `${k}:${cursor[field]}`);
  return Buffer.from(lines.join('\n')).toString('base64');
}

function decodeCursor(token: string): ListV2Cursor {
  const out: ListV2Cursor = { startAfter: '', sortOrder: 'asc' };
  for (const line of Buffer.from(token, 'base64').toString().split('\n')) {
    const m = /^(\S):(.*)$/.exec(line);
    const field = m ? CURSOR_PARTS[m[1]!] : undefined;
    if (!m || !field) throw ERRORS.invalidParameter('continuation token');
    out[field] = m[2]!;
  }
  return out;
}

/**
 * POST /object/list-v2/:bucket — body { prefix?, limit?, cursor?, with_delimiter?, sortBy? } →
 * { hasNext, nextCursor?, nextCursorKey?, folders, objects } (storage-api listObjectsV2).
 * Rows are read as the caller (RLS). Folders (with_delimiter) are `<prefix><name>/` entries
 * with id null; they sort by name among the objects.
 */
export async function listObjectsV2(ctx: StorageContext, r: RouteRequest, caller: Caller, bucket: string): Promise<void> {
  const body = await jsonBody(r.req);
  const prefix = str(body, 'prefix', true) ?? '';
  const limit = Math.min(int(body, 'limit', 1) ?? 1000, 1000);
  const withDelimiter = bool(body, 'with_delimiter') ?? false;
  const cursorToken = str(body, 'cursor', true);
  const cursor = cursorToken ? decodeCursor(cursorToken) : undefined;
  let column = cursor?.sortColumn ?? 'name';
  let order = cursor?.sortOrder ?? 'asc';
  if (!cursor && body.sortBy !== undefined && body.sortBy !== null) {
    const sortBy = body.sortBy as Record<string, unknown>;
    if (typeof sortBy !== 'object' || typeof sortBy.column !== 'string' || !['name', 'updated_at', 'created_at'].includes(sortBy.column)) {
      throw ERRORS.badRequest('body/sortBy/column must be equal to one of the allowed values');
    }
    if (sortBy.order !== undefined && sortBy.order !== 'asc' && sortBy.order !== 'desc') {
      throw ERRORS.badRequest('body/sortBy/order must be equal to one of the allowed values');
    }
    column = sortBy.column;
    order = (sortBy.order as string | undefined) ?? 'asc';
  }
  if (!['name', 'updated_at', 'created_at'].includes(column) || !['asc', 'desc'].includes(order)) throw ERRORS.invalidParameter('continuation token');

  const rows = await asCaller(ctx.pool, caller, 'storage.object.list_v2', async (c) =>
    (
      await c.query<ObjectRow>(
        `select id, name, bucket_id, version, metadata, user_metadata, created_at, updated_at, last_accessed_at
           from storage.objects
          where bucket_id = $1 and left(name, length($2)) = $2
          order by ${column === 'name' ? '' : `date_trunc('milliseconds', ${column}) ${order}, `}name collate "C" ${order}`,
        [bucket, prefix],
      )
    ).rows,
  ).catch((err: unknown) => {
    throw fromPgError(err);
  });

  type Entry = { folder: boolean; name: string; row?: ObjectRow; sortValue?: string };
  const entries: Entry[] = [];
  const seenFolders = new Set<string>();
  for (const row of rows) {
    const rest = row.name.slice(prefix.length);
    const slash = withDelimiter ? rest.indexOf('/') : -1;
    if (slash >= 0) {
      const folder = `${prefix}${rest.slice(0, slash + 1)}`;
      if (seenFolders.has(folder)) continue;
      seenFolders.add(folder);
      entries.push({ folder: true, name: folder });
    } else {
      const at = column === 'name' ? undefined : (row as unknown as Record<string, Date | null>)[column];
      entries.push({ folder: false, name: row.name, row, sortValue: at ? new Date(at).toISOString() : undefined });
    }
  }
  const after = (e: Entry): boolean => {
    if (!cursor) return true;
    if (column !== 'name' && cursor.sortColumnAfter && e.sortValue) {
      if (e.sortValue !== cursor.sortColumnAfter) return order === 'asc' ? e.sortValue > cursor.sortColumnAfter : e.sortValue < cursor.sortColumnAfter;
    }
    const cmp = Buffer.compare(Buffer.from(e.name), Buffer.from(cursor.startAfter));
    return order === 'asc' ? cmp > 0 : cmp < 0;
  };
  const remaining = entries.filter(after);
  const page = remaining.slice(0, limit);
  const hasNext = remaining.length > limit;
  const folders = page.filter((e) => e.folder).map((e) => ({ id: null, name: e.name, bucket_id: bucket }));
  const objects = page.filter((e) => !e.folder).map((e) => e.row!);
  const last = page[page.length - 1];
  const result: Record<string, unknown> = { hasNext, folders, objects };
  if (hasNext && last) {
    result.nextCursor = encodeCursor({ startAfter: last.name, sortOrder: order, sortColumn: column, sortColumnAfter: last.sortValue });
    result.nextCursorKey = last.name;
  }
  sendJson(r.res, 200, result);
}
