/**
 * Bucket routes of storage-api (src/http/routes/bucket/*): create, list, get, update,
 * delete (only when empty), empty (service_role only). Reads and writes of storage.buckets
 * run as the caller, so RLS on storage.buckets decides (no policies by default: only
 * service_role can manage buckets, as on Supabase).
 */
import { sendJson } from '../../http.ts';
import { asCaller, asSuperuser, ownerColumns, type Caller } from './caller.ts';
import { ERRORS, fromPgError } from './errors.ts';
import { bool, jsonBody, str, type RouteRequest, type StorageContext } from './request.ts';
import { mustBeValidBucketName, parseFileSizeLimit, validateAllowedMimeTypes } from './validation.ts';

const BUCKET_COLUMNS = 'id, name, owner, public, created_at, updated_at, file_size_limit, allowed_mime_types';
const LIST_COLUMNS = 'id, name, public, owner, created_at, updated_at, file_size_limit, allowed_mime_types, type';

/** Bucket row as the API returns it (file_size_limit as a number, like storage-api's pg types). */
function bucketOut(row: Record<string, unknown>): Record<string, unknown> {
  const limit = row.file_size_limit;
  return { ...row, file_size_limit: limit === null || limit === undefined ? null : Number(limit) };
}

/** POST /bucket — body { name, id?, public?, file_size_limit?, allowed_mime_types? } → { name }. */
export async function createBucket(ctx: StorageContext, r: RouteRequest, caller: Caller): Promise<void> {
  const body = await jsonBody(r.req);
  const name = str(body, 'name');
  const id = str(body, 'id', true) || name;
  const isPublic = bool(body, 'public') ?? false;
  const type = str(body, 'type', true);
  if (type !== undefined && type !== 'STANDARD') {
    throw ERRORS.invalidRequest('Only STANDARD buckets are supported by the local stack');
  }
  mustBeValidBucketName(name);
  mustBeValidBucketName(id);
  const fileSizeLimit = parseFileSizeLimit(body.file_size_limit);
  const allowed = validateAllowedMimeTypes(body.allowed_mime_types);
  const { owner, owner_id } = ownerColumns(caller.owner);
  try {
    await asCaller(ctx.pool, caller, 'storage.bucket.create', (c) =>
      c.query(
        `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types)
         values ($1, $2, $3, $4, $5, $6, $7)`,
        [id, name, owner, owner_id, isPublic, fileSizeLimit ?? null, allowed ?? null],
      ),
    );
  } catch (err) {
    const mapped = fromPgError(err);
    if (mapped.code === 'ResourceAlreadyExists') throw ERRORS.bucketAlreadyExists();
    throw mapped;
  }
  sendJson(r.res, 200, { name });
}

/** GET /bucket?limit&offset&sortColumn&sortOrder&search — the buckets the caller may see. */
export async function listBuckets(ctx: StorageContext, r: RouteRequest, caller: Caller): Promise<void> {
  const q = r.url.searchParams;
  const values: unknown[] = [];
  const where: string[] = [];
  const search = q.get('search');
  if (search) {
    values.push(`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`name ilike $${values.length}`);
  }
  let order = '';
  const sortColumn = q.get('sortColumn');
  if (sortColumn !== null) {
    if (!['id', 'name', 'created_at', 'updated_at'].includes(sortColumn)) {
      throw ERRORS.badRequest('querystring/sortColumn must be equal to one of the allowed values');
    }
    const sortOrder = q.get('sortOrder') ?? 'asc';
    if (!['asc', 'desc'].includes(sortOrder)) throw ERRORS.badRequest('querystring/sortOrder must be equal to one of the allowed values');
    order = ` order by ${sortColumn} ${sortOrder}`;
  }
  let page = '';
  for (const [key, min] of [['limit', 1], ['offset', 0]] as const) {
    const raw = q.get(key);
    if (raw === null) continue;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) throw ERRORS.badRequest(`querystring/${key} must be integer >= ${min}`);
    values.push(n);
    page += ` ${key} $${values.length}`;
  }
  const rows = await asCaller(ctx.pool, caller, 'storage.bucket.list', async (c) =>
    (await c.query(`select ${LIST_COLUMNS} from storage.buckets${where.length ? ` where ${where.join(' and ')}` : ''}${order}${page}`, values)).rows,
  ).catch((err: unknown) => {
    throw fromPgError(err);
  });
  sendJson(r.res, 200, rows.map(bucketOut));
}

/** GET /bucket/:id. Errors: 404 Bucket not found (also when RLS hides it). */
export async function getBucket(ctx: StorageContext, r: RouteRequest, caller: Caller, id: string): Promise<void> {
  const rows = await asCaller(ctx.pool, caller, 'storage.bucket.get', async (c) =>
    (await c.query(`select ${BUCKET_COLUMNS} from storage.buckets where id = $1`, [id])).rows,
  ).catch((err: unknown) => {
    throw fromPgError(err);
  });
  if (!rows[0]) throw ERRORS.noSuchBucket();
  sendJson(r.res, 200, bucketOut(rows[0]));
}

/** PUT /bucket/:id — body { public?, file_size_limit?, allowed_mime_types? } (at least one). */
export async function updateBucket(ctx: StorageContext, r: RouteRequest, caller: Caller, id: string): Promise<void> {
  mustBeValidBucketName(id);
  const body = await jsonBody(r.req);
  const sets: string[] = [];
  const values: unknown[] = [];
  const isPublic = bool(body, 'public');
  if (isPublic !== undefined) {
    values.push(isPublic);
    sets.push(`public = $${values.length}`);
  }
  if ('file_size_limit' in body) {
    values.push(parseFileSizeLimit(body.file_size_limit) ?? null);
    sets.push(`file_size_limit = $${values.length}`);
  }
  if ('allowed_mime_types' in body) {
    values.push(validateAllowedMimeTypes(body.allowed_mime_types) ?? null);
    sets.push(`allowed_mime_types = $${values.length}`);
  }
  if (sets.length === 0) throw ERRORS.noContentProvided();
  values.push(id);
  const count = await asCaller(ctx.pool, caller, 'storage.bucket.update', async (c) =>
    (await c.query(`update storage.buckets set ${sets.join(', ')}, updated_at = now() where id = $${values.length}`, values)).rowCount,
  ).catch((err: unknown) => {
    throw fromPgError(err);
  });
  if (!count) throw ERRORS.noSuchBucket();
  sendJson(r.res, 200, { message: 'Successfully updated' });
}

/** DELETE /bucket/:id. Errors: 404 missing, 409 ResourceNotEmpty when objects remain. */
export async function deleteBucket(ctx: StorageContext, r: RouteRequest, caller: Caller, id: string): Promise<void> {
  // existence and emptiness are checked as the superuser, as storage-api does
  const state = await asSuperuser(ctx.pool, 'storage.bucket.delete', async (c) => {
    const b = await c.query('select id from storage.buckets where id = $1', [id]);
    if (!b.rowCount) return 'missing' as const;
    const o = await c.query('select 1 from storage.objects where bucket_id = $1 limit 1', [id]);
    return o.rowCount ? ('not-empty' as const) : ('ok' as const);
  });
  if (state === 'missing') throw ERRORS.noSuchBucket();
  if (state === 'not-empty') throw ERRORS.bucketNotEmpty();
  const count = await asCaller(ctx.pool, caller, 'storage.bucket.delete', async (c) =>
    (await c.query('delete from storage.buckets where id = $1', [id])).rowCount,
  ).catch((err: unknown) => {
    const mapped = fromPgError(err);
    // a concurrent upload landed between the check and the delete (foreign key)
    if (mapped.statusCode === 404) throw ERRORS.bucketNotEmpty();
    throw mapped;
  });
  if (!count) throw ERRORS.noSuchBucket();
  await ctx.disk.removeBucketDir(id);
  sendJson(r.res, 200, { message: 'Successfully deleted' });
}

/**
 * POST /bucket/:id/empty (service_role only, as storage-api): deletes every object and its
 * bytes. storage-api queues this; here it completes before answering.
 */
export async function emptyBucket(ctx: StorageContext, r: RouteRequest, caller: Caller, id: string): Promise<void> {
  if (caller.role !== 'service_role') throw ERRORS.accessDenied('Access denied: Invalid role', 403);
  const exists = await asSuperuser(ctx.pool, 'storage.bucket.empty', async (c) =>
    (await c.query('select 1 from storage.buckets where id = $1', [id])).rowCount,
  );
  if (!exists) throw ERRORS.noSuchBucket();
  const staged: { undo(): Promise<void>; finish(): Promise<void> }[] = [];
  try {
    await asSuperuser(ctx.pool, 'storage.bucket.empty', async (c) => {
      const deleted = await c.query<{ name: string }>('delete from storage.objects where bucket_id = $1 returning name', [id]);
      for (const row of deleted.rows) staged.push(await ctx.disk.remove(id, row.name));
    });
  } catch (err) {
    for (const s of staged.reverse()) await s.undo();
    throw fromPgError(err);
  }
  for (const s of staged) await s.finish();
  sendJson(r.res, 200, { message: 'Successfully emptied' });
}
