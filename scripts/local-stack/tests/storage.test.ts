/**
 * Contract tests: the Storage service behind the gateway, driven by supabase-js's storage
 * client (raw fetch only for requests storage-js cannot produce: bad paths, malformed bodies,
 * tampered tokens). RLS on storage.objects decides per caller, as on Supabase.
 *
 * Error statuses follow storage-api: the HTTP status is 400 for client errors and the
 * semantic status is the body's `statusCode` (storage-js: `error.status` / `error.statusCode`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type pg from 'pg';
import { anonClient, config, serviceClient, signedInClient, superuserDb } from '../../test-support/clients.ts';
import { signJwt } from '../jwt.ts';

const RUN = randomUUID().slice(0, 8);
const STORAGE_URL = `${config.apiUrl}/storage/v1`;
const STORAGE_ROOT = path.join(config.dataDir, 'storage');
let userA: string;
let userB: string;

let db: pg.Client;
let admin: SupabaseClient;
let anon: SupabaseClient;
let clientA: SupabaseClient;
let clientB: SupabaseClient;
let tokenA: string;
const createdBuckets: string[] = [];

function userToken(sub: string, expiresIn = 3600): Promise<string> {
  return signJwt({ sub, role: 'authenticated', aud: 'authenticated', email: `${sub}@test.local` }, config.jwtSecret, expiresIn);
}

/** Creates a bucket through the API (service_role) and remembers it for cleanup. */
async function bucket(prefix: string, options: { public?: boolean; fileSizeLimit?: number | string; allowedMimeTypes?: string[] } = {}): Promise<string> {
  const id = `${prefix}-${RUN}`;
  const { error } = await admin.storage.createBucket(id, { public: options.public ?? false, ...options });
  expect(error).toBeNull();
  createdBuckets.push(id);
  return id;
}

function md5(data: Buffer | string): string {
  return createHash('md5').update(data).digest('hex');
}

function filesUnder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, full)] = md5(fs.readFileSync(full));
  }
  return out;
}

/** Everything stored for a bucket: rows (name, version, eTag) and files on disk (path → md5). */
async function snapshot(bucketId: string): Promise<{ rows: unknown[]; files: Record<string, string> }> {
  const r = await db.query(
    `select name, version, metadata->>'eTag' as etag, owner_id from storage.objects where bucket_id = $1 order by name`,
    [bucketId],
  );
  return { rows: r.rows, files: filesUnder(path.join(STORAGE_ROOT, bucketId)) };
}

async function objectRow(bucketId: string, name: string): Promise<Record<string, unknown> | undefined> {
  const r = await db.query('select * from storage.objects where bucket_id = $1 and name = $2', [bucketId, name]);
  return r.rows[0] as Record<string, unknown> | undefined;
}

function diskPath(bucketId: string, name: string): string {
  return path.join(STORAGE_ROOT, bucketId, ...name.split('/'));
}

/** Raw request to the storage API (for inputs storage-js cannot produce). */
async function raw(method: string, subpath: string, init: { token?: string; body?: BodyInit; headers?: Record<string, string> } = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${STORAGE_URL}${subpath}`, {
    method,
    headers: { apikey: config.anonKey, authorization: `Bearer ${init.token ?? config.serviceRoleKey}`, ...init.headers },
    body: init.body,
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

beforeAll(async () => {
  db = await superuserDb();
  admin = serviceClient();
  anon = anonClient();
  // two real users through the auth admin API, signed in with a password (their session JWT is the bearer)
  const a = await signedInClient();
  const b = await signedInClient();
  [userA, userB, tokenA, clientA, clientB] = [a.userId, b.userId, a.accessToken, a.client, b.client];
});

afterAll(async () => {
  for (const id of createdBuckets) {
    await admin.storage.emptyBucket(id);
    await admin.storage.deleteBucket(id);
  }
  for (const id of [userA, userB]) if (id) await admin.auth.admin.deleteUser(id);
  await db?.end();
});

describe('storage schema (bootstrap as on hosted Supabase)', () => {
  it('has RLS on buckets and objects, the API roles granted, and the path helpers', async () => {
    const rls = await db.query(
      `select relname, relrowsecurity from pg_class where relnamespace = 'storage'::regnamespace and relname in ('buckets', 'objects', 'migrations') order by relname`,
    );
    expect(rls.rows).toEqual([
      { relname: 'buckets', relrowsecurity: true },
      { relname: 'migrations', relrowsecurity: true },
      { relname: 'objects', relrowsecurity: true },
    ]);
    const grants = await db.query(
      `select grantee, count(*)::int as n from information_schema.role_table_grants
        where table_schema = 'storage' and table_name = 'objects' and grantee in ('anon', 'authenticated', 'service_role')
        group by grantee order by grantee`,
    );
    expect(grants.rows.map((g: { grantee: string }) => g.grantee)).toEqual(['anon', 'authenticated', 'service_role']);
    const helpers = await db.query(
      `select storage.foldername('u1/p2/cv.pdf') as folders, storage.filename('u1/p2/cv.pdf') as file, storage.extension('u1/p2/cv.pdf') as ext`,
    );
    expect(helpers.rows[0]).toEqual({ folders: ['u1', 'p2'], file: 'cv.pdf', ext: 'pdf' });
    const cols = await db.query(
      `select column_name from information_schema.columns where table_schema = 'storage' and table_name = 'objects' order by ordinal_position`,
    );
    expect(cols.rows.map((c: { column_name: string }) => c.column_name)).toEqual([
      'id', 'bucket_id', 'name', 'owner', 'created_at', 'updated_at', 'last_accessed_at', 'metadata', 'path_tokens', 'version', 'owner_id', 'user_metadata',
    ]);
  });

  it('refuses direct deletes from storage tables, as hosted Supabase does', async () => {
    await expect(db.query(`delete from storage.objects where name = 'nothing-${RUN}'`)).rejects.toThrow(
      'Direct deletion from storage tables is not allowed. Use the Storage API instead.',
    );
  });
});

describe('buckets', () => {
  it('creates, reads, lists, updates, empties and deletes a bucket (service_role)', async () => {
    const id = await bucket('crud', { fileSizeLimit: '1MB', allowedMimeTypes: ['image/*', 'text/plain'] });
    const got = await admin.storage.getBucket(id);
    expect(got.error).toBeNull();
    expect(got.data).toMatchObject({ id, name: id, public: false, file_size_limit: 1_000_000, allowed_mime_types: ['image/*', 'text/plain'] });

    const list = await admin.storage.listBuckets({ search: `crud-${RUN}` });
    expect(list.error).toBeNull();
    expect(list.data!.map((b) => b.id)).toEqual([id]);

    const upd = await admin.storage.updateBucket(id, { public: true, fileSizeLimit: 2048, allowedMimeTypes: ['text/plain'] });
    expect(upd).toEqual({ data: { message: 'Successfully updated' }, error: null });
    const row = (await db.query('select public, file_size_limit, allowed_mime_types from storage.buckets where id = $1', [id])).rows[0];
    expect(row).toEqual({ public: true, file_size_limit: '2048', allowed_mime_types: ['text/plain'] });

    const up = await admin.storage.from(id).upload('x.txt', Buffer.from('x'), { contentType: 'text/plain' });
    expect(up.error).toBeNull();
    const notEmpty = await admin.storage.deleteBucket(id);
    expect(notEmpty.error).toMatchObject({ status: 400, statusCode: '409', message: 'The bucket you tried to delete is not empty' });
    expect((await admin.storage.getBucket(id)).data?.id).toBe(id);

    const empty = await admin.storage.emptyBucket(id);
    expect(empty.error).toBeNull();
    expect((await snapshot(id)).rows).toEqual([]);
    expect(fs.existsSync(diskPath(id, 'x.txt'))).toBe(false);

    const del = await admin.storage.deleteBucket(id);
    expect(del).toEqual({ data: { message: 'Successfully deleted' }, error: null });
    const gone = await admin.storage.getBucket(id);
    expect(gone.error).toMatchObject({ status: 400, statusCode: '404', message: 'Bucket not found' });
    expect(fs.existsSync(path.join(STORAGE_ROOT, id))).toBe(false);
  });

  it('answers duplicates, missing buckets, bad names and bad limits in storage-api shape', async () => {
    const id = await bucket('dupe');
    const dup = await admin.storage.createBucket(id);
    expect(dup.error).toMatchObject({ status: 400, statusCode: '409', message: 'The resource already exists' });

    const res = await raw('POST', '/bucket', { body: JSON.stringify({ name: id }), headers: { 'content-type': 'application/json' } });
    expect(res).toEqual({ status: 400, body: { statusCode: '409', code: 'BucketAlreadyExists', error: 'Duplicate', message: 'The resource already exists' } });

    const badName = await raw('POST', '/bucket', { body: JSON.stringify({ name: 'bad/name' }), headers: { 'content-type': 'application/json' } });
    expect(badName.body).toMatchObject({ statusCode: '400', code: 'InvalidBucketName' });
    const dots = await raw('POST', '/bucket', { body: JSON.stringify({ name: '..' }), headers: { 'content-type': 'application/json' } });
    expect(dots.body).toMatchObject({ statusCode: '400', code: 'InvalidBucketName' });

    const badLimit = await admin.storage.createBucket(`limit-${RUN}`, { public: false, fileSizeLimit: '12XB' });
    expect(badLimit.error).toMatchObject({ status: 400, statusCode: '400' });
    const tooBig = await admin.storage.createBucket(`limit-${RUN}`, { public: false, fileSizeLimit: '2GB' });
    expect(tooBig.error).toMatchObject({ statusCode: '413' });
    const badMime = await admin.storage.createBucket(`limit-${RUN}`, { public: false, allowedMimeTypes: ['not a mime'] });
    expect(badMime.error).toMatchObject({ statusCode: '415' });
    expect((await db.query('select 1 from storage.buckets where id = $1', [`limit-${RUN}`])).rowCount).toBe(0);

    const missing = await admin.storage.updateBucket(`missing-${RUN}`, { public: true });
    expect(missing.error).toMatchObject({ statusCode: '404', message: 'Bucket not found' });
    const missingDel = await admin.storage.deleteBucket(`missing-${RUN}`);
    expect(missingDel.error).toMatchObject({ statusCode: '404' });
  });

  it('lets RLS on storage.buckets decide: anon and users cannot manage buckets, empty is service_role only', async () => {
    const id = `rlsbucket-${RUN}`;
    for (const client of [anon, clientA]) {
      const res = await client.storage.createBucket(id);
      expect(res.error).toMatchObject({ status: 400, statusCode: '403', message: 'new row violates row-level security policy' });
    }
    expect((await db.query('select 1 from storage.buckets where id = $1', [id])).rowCount).toBe(0);

    const existing = await bucket('hidden');
    expect((await clientA.storage.listBuckets()).data).toEqual([]);
    expect((await clientA.storage.getBucket(existing)).error).toMatchObject({ statusCode: '404' });
    const empty = await clientA.storage.emptyBucket(existing);
    expect(empty.error).toMatchObject({ status: 403, statusCode: '403', message: 'Access denied: Invalid role' });
    const del = await clientA.storage.deleteBucket(existing);
    expect(del.error).toMatchObject({ statusCode: '404' });
    expect((await admin.storage.getBucket(existing)).data?.id).toBe(existing);
  });
});

describe('objects', () => {
  let b: string;
  beforeAll(async () => {
    b = await bucket('objects', { public: false });
  });

  it('uploads Blob, File and Buffer bodies with storage-api metadata and bytes on disk', async () => {
    const f = admin.storage.from(b);
    const blob = await f.upload('blob/hello.txt', new Blob(['hello blob'], { type: 'text/plain' }), { cacheControl: '120' });
    expect(blob.error).toBeNull();
    expect(blob.data).toMatchObject({ path: 'blob/hello.txt', fullPath: `${b}/blob/hello.txt` });
    expect(blob.data!.id).toMatch(/^[0-9a-f-]{36}$/);
    const row = await objectRow(b, 'blob/hello.txt');
    expect(row).toMatchObject({ id: blob.data!.id, bucket_id: b, owner: null, owner_id: null, path_tokens: ['blob', 'hello.txt'] });
    expect(row!.metadata).toMatchObject({
      eTag: `"${md5('hello blob')}"`,
      size: 10,
      mimetype: 'text/plain',
      cacheControl: 'max-age=120',
      contentLength: 10,
      httpStatusCode: 200,
    });
    expect(fs.readFileSync(diskPath(b, 'blob/hello.txt'), 'utf8')).toBe('hello blob');

    const file = await f.upload('file/pic.png', new File([Buffer.from([0x89, 0x50, 0x4e, 0x47])], 'pic.png', { type: 'image/png' }));
    expect(file.error).toBeNull();
    expect((await objectRow(b, 'file/pic.png'))!.metadata).toMatchObject({ mimetype: 'image/png', size: 4 });

    const buf = await f.upload('buffer/data.bin', Buffer.from('raw bytes'), { contentType: 'application/octet-stream', metadata: { source: 'test' } });
    expect(buf.error).toBeNull();
    expect(await objectRow(b, 'buffer/data.bin')).toMatchObject({ user_metadata: { source: 'test' } });
    expect(fs.readFileSync(diskPath(b, 'buffer/data.bin'), 'utf8')).toBe('raw bytes');

    // a streamed body (chunked transfer, no content-length)
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of ['chunk-1;', 'chunk-2;', 'chunk-3']) controller.enqueue(new TextEncoder().encode(part));
        controller.close();
      },
    });
    const streamed = await f.upload('stream/body.txt', stream, { contentType: 'text/plain' });
    expect(streamed.error).toBeNull();
    expect(fs.readFileSync(diskPath(b, 'stream/body.txt'), 'utf8')).toBe('chunk-1;chunk-2;chunk-3');
    expect((await objectRow(b, 'stream/body.txt'))!.metadata).toMatchObject({ size: 23 });
  });

  it('refuses a duplicate without upsert (409, nothing changes) and replaces with upsert/update', async () => {
    const f = admin.storage.from(b);
    const first = await f.upload('dup/a.txt', new Blob(['v1'], { type: 'text/plain' }));
    expect(first.error).toBeNull();
    const before = await snapshot(b);
    const dup = await f.upload('dup/a.txt', new Blob(['v2'], { type: 'text/plain' }));
    expect(dup.error).toMatchObject({ status: 400, statusCode: '409', message: 'The resource already exists' });
    expect(await snapshot(b)).toEqual(before);

    const upsert = await f.upload('dup/a.txt', new Blob(['v3'], { type: 'text/plain' }), { upsert: true });
    expect(upsert.error).toBeNull();
    expect(upsert.data!.id).toBe(first.data!.id);
    expect(fs.readFileSync(diskPath(b, 'dup/a.txt'), 'utf8')).toBe('v3');

    const update = await f.update('dup/a.txt', Buffer.from('v4'), { contentType: 'text/plain' });
    expect(update.error).toBeNull();
    const dl = await f.download('dup/a.txt');
    expect(await dl.data!.text()).toBe('v4');
    expect((await objectRow(b, 'dup/a.txt'))!.metadata).toMatchObject({ eTag: `"${md5('v4')}"`, size: 2 });
  });

  it('keeps row and bytes consistent under concurrent uploads to one key', async () => {
    const f = admin.storage.from(b);
    const bodies = Array.from({ length: 6 }, (_, i) => `concurrent body ${i}`);
    const plain = await Promise.all(bodies.map((body) => f.upload('race/plain.txt', new Blob([body], { type: 'text/plain' }))));
    expect(plain.filter((r) => r.error === null)).toHaveLength(1);
    expect(plain.filter((r) => r.error?.message === 'The resource already exists')).toHaveLength(5);
    const upserts = await Promise.all(bodies.map((body) => f.upload('race/upsert.txt', new Blob([body], { type: 'text/plain' }), { upsert: true })));
    expect(upserts.every((r) => r.error === null)).toBe(true);
    for (const name of ['race/plain.txt', 'race/upsert.txt']) {
      const row = await objectRow(b, name);
      const bytes = fs.readFileSync(diskPath(b, name));
      expect((row!.metadata as { eTag: string }).eTag).toBe(`"${md5(bytes)}"`);
      expect(bodies).toContain(bytes.toString());
    }
    expect(fs.readdirSync(path.join(STORAGE_ROOT, b, 'race')).sort()).toEqual(['plain.txt', 'upsert.txt']);
  });

  it('rolls back the row when the bytes cannot be placed, and the bytes when the commit fails', async () => {
    const f = admin.storage.from(b);
    expect((await f.upload('layout/file', new Blob(['a file'], { type: 'text/plain' }))).error).toBeNull();
    expect((await f.upload('layout/dir/inner.txt', new Blob(['inner'], { type: 'text/plain' }))).error).toBeNull();
    const before = await snapshot(b);
    // the local disk layout cannot hold both `x` and `x/y`: refused, and the row is rolled back
    const under = await f.upload('layout/file/child.txt', new Blob(['x'], { type: 'text/plain' }));
    expect(under.error).toMatchObject({ statusCode: '400', message: 'Invalid key: layout/file/child.txt' });
    const over = await f.upload('layout/dir', new Blob(['x'], { type: 'text/plain' }));
    expect(over.error).toMatchObject({ statusCode: '400' });
    expect(await snapshot(b)).toEqual(before);

    // a deferred constraint trigger fails at commit: the placed bytes are taken back
    const fn = `fail_at_commit_${RUN}`;
    await db.query(`create function public.${fn}() returns trigger language plpgsql as $$
      begin raise exception 'refused at commit' using errcode = 'check_violation'; end $$`);
    await db.query(`create constraint trigger ${fn} after insert or update on storage.objects deferrable initially deferred
      for each row when (new.name like '%fail-at-commit%') execute function public.${fn}()`);
    try {
      const fresh = await f.upload('layout/fail-at-commit.txt', new Blob(['new'], { type: 'text/plain' }));
      expect(fresh.error).toMatchObject({ status: 500, statusCode: '500' });
      expect(fs.existsSync(diskPath(b, 'layout/fail-at-commit.txt'))).toBe(false);
      expect(await snapshot(b)).toEqual(before);
    } finally {
      await db.query(`drop trigger ${fn} on storage.objects; drop function public.${fn}()`);
    }
    expect((await f.upload('layout/fail-at-commit-2.txt', new Blob(['old'], { type: 'text/plain' }))).error).toBeNull();
    await db.query(`create function public.${fn}() returns trigger language plpgsql as $$
      begin raise exception 'refused at commit' using errcode = 'check_violation'; end $$`);
    await db.query(`create constraint trigger ${fn} after update on storage.objects deferrable initially deferred
      for each row when (new.name like '%fail-at-commit%') execute function public.${fn}()`);
    try {
      const replaced = await f.upload('layout/fail-at-commit-2.txt', new Blob(['replacement'], { type: 'text/plain' }), { upsert: true });
      expect(replaced.error).toMatchObject({ status: 500 });
      expect(fs.readFileSync(diskPath(b, 'layout/fail-at-commit-2.txt'), 'utf8')).toBe('old');
      expect((await objectRow(b, 'layout/fail-at-commit-2.txt'))!.metadata).toMatchObject({ eTag: `"${md5('old')}"` });
    } finally {
      await db.query(`drop trigger ${fn} on storage.objects; drop function public.${fn}()`);
    }
  });

  it('downloads, reports info and existence', async () => {
    const f = admin.storage.from(b);
    await f.upload('info/doc.txt', new Blob(['document body'], { type: 'text/plain' }), { metadata: { lang: 'de' } });
    const dl = await f.download('info/doc.txt');
    expect(dl.error).toBeNull();
    expect(await dl.data!.text()).toBe('document body');

    const info = await f.info('info/doc.txt');
    expect(info.error).toBeNull();
    expect(info.data).toMatchObject({
      name: 'info/doc.txt',
      bucketId: b,
      size: 13,
      contentType: 'text/plain',
      cacheControl: 'max-age=3600',
      etag: `"${md5('document body')}"`,
      metadata: { lang: 'de' },
    });

    expect(await f.exists('info/doc.txt')).toEqual({ data: true, error: null });
    const no = await f.exists('info/missing.txt');
    expect(no.data).toBe(false);

    const missing = await f.download('info/missing.txt');
    expect(missing.error).toMatchObject({ status: 400 });
    const res = await raw('GET', `/object/${b}/info/missing.txt`);
    expect(res).toEqual({ status: 400, body: { statusCode: '404', code: 'NoSuchKey', error: 'not_found', message: 'Object not found' } });

    // a row without bytes (as the seed creates them): the renderer's not-found answer, no crash
    await db.query(`insert into storage.objects (bucket_id, name, metadata) values ($1, 'info/no-bytes.pdf', '{"mimetype":"application/pdf","size":5}')`, [b]);
    const noBytes = await raw('GET', `/object/${b}/info/no-bytes.pdf`);
    expect(noBytes).toEqual({ status: 400, body: { statusCode: '404', code: 'NoSuchKey', error: 'Not found', message: 'The resource was not found' } });
    expect((await f.remove(['info/no-bytes.pdf'])).data!.map((o) => o.name)).toEqual(['info/no-bytes.pdf']);

    const ranged = await fetch(`${STORAGE_URL}/object/${b}/info/doc.txt`, { headers: { apikey: config.anonKey, authorization: `Bearer ${config.serviceRoleKey}`, range: 'bytes=0-7' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe('bytes 0-7/13');
    expect(await ranged.text()).toBe('document');
  });

  it('serves stored HTML as text/plain, keeping text/html in the metadata (storage-api renderer.ts normalizeContentType)', async () => {
    const f = admin.storage.from(b);
    expect((await f.upload('info/page.html', new Blob(['<script>alert(1)</script>'], { type: 'text/html' }))).error).toBeNull();
    const res = await fetch(`${STORAGE_URL}/object/${b}/info/page.html`, { headers: { apikey: config.anonKey, authorization: `Bearer ${config.serviceRoleKey}` } });
    expect([res.status, res.headers.get('content-type'), await res.text()]).toEqual([200, 'text/plain', '<script>alert(1)</script>']);
    expect((await f.info('info/page.html')).data?.contentType).toBe('text/html');
    await f.remove(['info/page.html']);
  });

  it('lists a folder level with prefix, limit, offset, sortBy and search', async () => {
    const f = admin.storage.from(b);
    for (const name of ['list/b.txt', 'list/a.txt', 'list/C.txt', 'list/sub/deep.txt', 'list/sub2/x.txt']) {
      expect((await f.upload(name, new Blob([name], { type: 'text/plain' }))).error).toBeNull();
    }
    const root = await f.list();
    expect(root.error).toBeNull();
    expect(root.data!.find((e) => e.name === 'list')).toMatchObject({ name: 'list', id: null, metadata: null });

    const all = await f.list('list');
    expect(all.data!.map((e) => e.name)).toEqual(['a.txt', 'b.txt', 'C.txt', 'sub', 'sub2']);
    const file = all.data!.find((e) => e.name === 'a.txt')!;
    expect(file.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(file.metadata).toMatchObject({ size: 10, mimetype: 'text/plain' });

    const page = await f.list('list/', { limit: 2, offset: 1 });
    expect(page.data!.map((e) => e.name)).toEqual(['b.txt', 'C.txt']);
    const desc = await f.list('list', { sortBy: { column: 'name', order: 'desc' } });
    expect(desc.data!.map((e) => e.name)).toEqual(['sub2', 'sub', 'C.txt', 'b.txt', 'a.txt']);
    const search = await f.list('list', { search: 'su' });
    expect(search.data!.map((e) => e.name)).toEqual(['sub', 'sub2']);
    const byCreated = await f.list('list', { sortBy: { column: 'created_at', order: 'desc' } });
    expect(byCreated.data!.map((e) => e.name)).toEqual(['sub', 'sub2', 'C.txt', 'a.txt', 'b.txt']);
    const deep = await f.list('list/sub');
    expect(deep.data!.map((e) => e.name)).toEqual(['deep.txt']);
  });

  it('lists with listV2: delimiter folders, cursor paging', async () => {
    const f = admin.storage.from(b);
    for (const name of ['v2/a.txt', 'v2/b/c.txt', 'v2/b/d.txt', 'v2/e.txt']) {
      expect((await f.upload(name, new Blob([name], { type: 'text/plain' }))).error).toBeNull();
    }
    const flat = await f.listV2({ prefix: 'v2/' });
    expect(flat.error).toBeNull();
    expect(flat.data!.objects.map((o) => o.name)).toEqual(['v2/a.txt', 'v2/b/c.txt', 'v2/b/d.txt', 'v2/e.txt']);
    expect(flat.data!.hasNext).toBe(false);

    const first = await f.listV2({ prefix: 'v2/', with_delimiter: true, limit: 2 });
    expect(first.data!.folders.map((o) => o.name)).toEqual(['v2/b/']);
    expect(first.data!.objects.map((o) => o.name)).toEqual(['v2/a.txt']);
    expect(first.data!.hasNext).toBe(true);
    const second = await f.listV2({ prefix: 'v2/', with_delimiter: true, limit: 2, cursor: first.data!.nextCursor });
    expect(second.data!.objects.map((o) => o.name)).toEqual(['v2/e.txt']);
    expect(second.data!.folders).toEqual([]);
    expect(second.data!.hasNext).toBe(false);

    const desc = await f.listV2({ prefix: 'v2/', sortBy: { column: 'name', order: 'desc' }, limit: 3 });
    expect(desc.data!.objects.map((o) => o.name)).toEqual(['v2/e.txt', 'v2/b/d.txt', 'v2/b/c.txt']);
    const rest = await f.listV2({ prefix: 'v2/', limit: 3, cursor: desc.data!.nextCursor });
    expect(rest.data!.objects.map((o) => o.name)).toEqual(['v2/a.txt']);
    const bad = await f.listV2({ prefix: 'v2/', cursor: 'not a cursor' });
    expect(bad.error).toMatchObject({ statusCode: '400' });
  });

  it('moves and copies objects (rows and bytes), refusing to overwrite on move', async () => {
    const f = admin.storage.from(b);
    await f.upload('mv/src.txt', new Blob(['move me'], { type: 'text/plain' }));
    const srcId = (await objectRow(b, 'mv/src.txt'))!.id;
    const moved = await f.move('mv/src.txt', 'mv/done/dst.txt');
    expect(moved.error).toBeNull();
    expect(moved.data).toMatchObject({ message: 'Successfully moved' });
    expect(await objectRow(b, 'mv/src.txt')).toBeUndefined();
    expect((await objectRow(b, 'mv/done/dst.txt'))!.id).toBe(srcId);
    expect(fs.existsSync(diskPath(b, 'mv/src.txt'))).toBe(false);
    expect(fs.readFileSync(diskPath(b, 'mv/done/dst.txt'), 'utf8')).toBe('move me');

    const copied = await f.copy('mv/done/dst.txt', 'cp/copy.txt');
    expect(copied).toEqual({ data: { path: `${b}/cp/copy.txt` }, error: null });
    expect(fs.readFileSync(diskPath(b, 'cp/copy.txt'), 'utf8')).toBe('move me');
    expect(fs.readFileSync(diskPath(b, 'mv/done/dst.txt'), 'utf8')).toBe('move me');

    const other = await bucket('other');
    const across = await f.copy('cp/copy.txt', 'x/y.txt', { destinationBucket: other });
    expect(across.error).toBeNull();
    expect(fs.readFileSync(diskPath(other, 'x/y.txt'), 'utf8')).toBe('move me');

    const before = await snapshot(b);
    const clash = await f.move('cp/copy.txt', 'mv/done/dst.txt');
    expect(clash.error).toMatchObject({ statusCode: '409' });
    const missing = await f.copy('nope.txt', 'cp/nope.txt');
    expect(missing.error).toMatchObject({ statusCode: '404', message: 'Object not found' });
    const noBucket = await f.move('cp/copy.txt', 'z.txt', { destinationBucket: `nobucket-${RUN}` });
    expect(noBucket.error).toMatchObject({ statusCode: '404', message: 'Bucket not found' });
    expect(await snapshot(b)).toEqual(before);
  });

  it('handles keys with spaces and S3-safe punctuation through every route', async () => {
    const key = "odd/my file (1)+&$=@;:,!'.txt";
    const f = admin.storage.from(b);
    expect((await f.upload(key, new Blob(['odd'], { type: 'text/plain' }))).error).toBeNull();
    expect(fs.readFileSync(diskPath(b, key), 'utf8')).toBe('odd');
    expect(await (await f.download(key)).data!.text()).toBe('odd');
    expect((await f.info(key)).data).toMatchObject({ name: key });
    expect((await f.list('odd')).data!.map((e) => e.name)).toEqual(["my file (1)+&$=@;:,!'.txt"]);
    const signed = await f.createSignedUrl(key, 60);
    expect(await (await fetch(signed.data!.signedUrl)).text()).toBe('odd');
    expect((await f.move(key, 'odd/renamed file.txt')).error).toBeNull();
    expect(fs.readFileSync(diskPath(b, 'odd/renamed file.txt'), 'utf8')).toBe('odd');
    // storage-api accepts only S3-safe ASCII: non-ASCII names must be sanitised by the client
    const umlaut = await f.upload('odd/Präsentation.pdf', new Blob(['x'], { type: 'application/pdf' }));
    expect(umlaut.error).toMatchObject({ statusCode: '400', message: 'Invalid key: odd/Präsentation.pdf' });
  });

  it('removes objects and answers the deleted rows', async () => {
    const f = admin.storage.from(b);
    await f.upload('rm/1.txt', new Blob(['1'], { type: 'text/plain' }));
    await f.upload('rm/2.txt', new Blob(['2'], { type: 'text/plain' }));
    const removed = await f.remove(['rm/1.txt', 'rm/2.txt', 'rm/missing.txt']);
    expect(removed.error).toBeNull();
    expect(removed.data!.map((o) => o.name).sort()).toEqual(['rm/1.txt', 'rm/2.txt']);
    expect(removed.data![0]).toMatchObject({ bucket_id: b });
    expect(await objectRow(b, 'rm/1.txt')).toBeUndefined();
    expect(fs.existsSync(path.join(STORAGE_ROOT, b, 'rm'))).toBe(false);
    const again = await f.remove(['rm/1.txt']);
    expect(again).toEqual({ data: [], error: null });
  });
});

describe('signed and public URLs', () => {
  let priv: string;
  let pub: string;
  beforeAll(async () => {
    priv = await bucket('signed');
    pub = await bucket('public', { public: true });
    await admin.storage.from(priv).upload('s/secret.txt', new Blob(['secret'], { type: 'text/plain' }));
    await admin.storage.from(priv).upload('s/second.txt', new Blob(['second'], { type: 'text/plain' }));
    await admin.storage.from(pub).upload('p/open.txt', new Blob(['open'], { type: 'text/plain' }));
  });

  it('creates signed download URLs that serve without a key, and rejects bad tokens', async () => {
    const one = await admin.storage.from(priv).createSignedUrl('s/secret.txt', 60);
    expect(one.error).toBeNull();
    const res = await fetch(one.data!.signedUrl);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('secret');
    expect(res.headers.get('expires')).toBeTruthy();

    const dl = await admin.storage.from(priv).createSignedUrl('s/secret.txt', 60, { download: 'report.txt' });
    const dlRes = await fetch(dl.data!.signedUrl);
    expect(dlRes.headers.get('content-disposition')).toBe("attachment; filename=report.txt; filename*=UTF-8''report.txt");

    const many = await admin.storage.from(priv).createSignedUrls(['s/secret.txt', 's/second.txt', 's/none.txt'], 60);
    expect(many.error).toBeNull();
    expect(many.data!.map((d) => [d.path, d.error])).toEqual([
      ['s/secret.txt', null],
      ['s/second.txt', null],
      ['s/none.txt', 'Either the object does not exist or you do not have access to it'],
    ]);
    expect(await (await fetch(many.data![1]!.signedUrl!)).text()).toBe('second');

    const token = new URL(one.data!.signedUrl).searchParams.get('token')!;
    const wrongPath = await fetch(`${STORAGE_URL}/object/sign/${priv}/s/second.txt?token=${token}`);
    expect(wrongPath.status).toBe(400);
    expect(await wrongPath.json()).toMatchObject({ statusCode: '400', code: 'InvalidSignature' });
    const tampered = await fetch(`${STORAGE_URL}/object/sign/${priv}/s/secret.txt?token=${token.slice(0, -3)}abc`);
    expect(await tampered.json()).toMatchObject({ statusCode: '400', code: 'InvalidJWT' });
    const expired = await signJwt({ url: `${priv}/s/secret.txt`, scope: 'download' }, config.jwtSecret, -10);
    const expiredRes = await fetch(`${STORAGE_URL}/object/sign/${priv}/s/secret.txt?token=${expired}`);
    expect(await expiredRes.json()).toMatchObject({ statusCode: '400', code: 'InvalidJWT', message: 'jwt expired' });

    const missing = await admin.storage.from(priv).createSignedUrl('s/none.txt', 60);
    expect(missing.error).toMatchObject({ statusCode: '404' });
  });

  it('creates signed upload URLs; the token uploads once to its own path only', async () => {
    const f = admin.storage.from(priv);
    const signed = await f.createSignedUploadUrl('up/via-token.txt');
    expect(signed.error).toBeNull();
    expect(signed.data!.signedUrl).toContain(`/object/upload/sign/${priv}/up/via-token.txt?token=`);
    const up = await anon.storage.from(priv).uploadToSignedUrl('up/via-token.txt', signed.data!.token, new Blob(['token upload'], { type: 'text/plain' }));
    expect(up.error).toBeNull();
    expect(up.data).toMatchObject({ path: 'up/via-token.txt', fullPath: `${priv}/up/via-token.txt` });
    expect(fs.readFileSync(diskPath(priv, 'up/via-token.txt'), 'utf8')).toBe('token upload');

    const before = await snapshot(priv);
    const again = await anon.storage.from(priv).uploadToSignedUrl('up/via-token.txt', signed.data!.token, new Blob(['again'], { type: 'text/plain' }));
    expect(again.error).toMatchObject({ statusCode: '409' });
    const elsewhere = await anon.storage.from(priv).uploadToSignedUrl('up/other.txt', signed.data!.token, new Blob(['x'], { type: 'text/plain' }));
    expect(elsewhere.error).toMatchObject({ statusCode: '400', message: 'Invalid signature' });
    const download = await f.createSignedUrl('s/secret.txt', 60);
    const dlToken = new URL(download.data!.signedUrl).searchParams.get('token')!;
    const wrongScope = await anon.storage.from(priv).uploadToSignedUrl('s/secret.txt', dlToken, new Blob(['x'], { type: 'text/plain' }), { upsert: true });
    expect(wrongScope.error).toMatchObject({ statusCode: '400', message: 'Token is not scoped for upload' });
    expect(await snapshot(priv)).toEqual(before);

    const upsertSigned = await f.createSignedUploadUrl('up/via-token.txt', { upsert: true });
    const replaced = await anon.storage.from(priv).uploadToSignedUrl('up/via-token.txt', upsertSigned.data!.token, Buffer.from('replaced'), { contentType: 'text/plain', upsert: true });
    expect(replaced.error).toBeNull();
    expect(fs.readFileSync(diskPath(priv, 'up/via-token.txt'), 'utf8')).toBe('replaced');
  });

  it('serves getPublicUrl for public buckets only, without an apikey', async () => {
    const url = anon.storage.from(pub).getPublicUrl('p/open.txt').data.publicUrl;
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(res.headers.get('etag')).toBe(`"${md5('open')}"`);
    expect(await res.text()).toBe('open');

    const dl = await fetch(anon.storage.from(pub).getPublicUrl('p/open.txt', { download: true }).data.publicUrl);
    expect(dl.headers.get('content-disposition')).toBe('attachment;');

    const privUrl = anon.storage.from(priv).getPublicUrl('s/secret.txt').data.publicUrl;
    const denied = await fetch(privUrl);
    expect(denied.status).toBe(400);
    expect(await denied.json()).toMatchObject({ statusCode: '404', message: 'Bucket not found' });

    // anon may read a public bucket through the authenticated download route too
    const anonDl = await anon.storage.from(pub).download('p/open.txt');
    expect(await anonDl.data!.text()).toBe('open');
    const anonPriv = await anon.storage.from(priv).download('s/secret.txt');
    expect(anonPriv.error).toMatchObject({ status: 400 });
  });
});

describe('RLS on storage.objects (own folder policy)', () => {
  let b: string;
  const policy = `own_folder_${RUN}`;
  beforeAll(async () => {
    b = await bucket('rls');
    for (const [op, clause] of [
      ['insert', `with check (bucket_id = '${b}' and (storage.foldername(name))[1] = (select auth.uid())::text)`],
      ['select', `using (bucket_id = '${b}' and (storage.foldername(name))[1] = (select auth.uid())::text)`],
      ['update', `using (bucket_id = '${b}' and (storage.foldername(name))[1] = (select auth.uid())::text) with check (bucket_id = '${b}' and (storage.foldername(name))[1] = (select auth.uid())::text)`],
      ['delete', `using (bucket_id = '${b}' and (storage.foldername(name))[1] = (select auth.uid())::text)`],
    ] as const) {
      await db.query(`create policy "${policy}_${op}" on storage.objects for ${op} to authenticated ${clause}`);
    }
  });
  afterAll(async () => {
    for (const op of ['insert', 'select', 'update', 'delete']) await db.query(`drop policy if exists "${policy}_${op}" on storage.objects`);
  });

  it('allows a user in their own folder and records them as owner', async () => {
    const f = clientA.storage.from(b);
    const up = await f.upload(`${userA}/avatar.png`, new Blob([Buffer.from('png-bytes')], { type: 'image/png' }));
    expect(up.error).toBeNull();
    expect(await objectRow(b, `${userA}/avatar.png`)).toMatchObject({ owner: userA, owner_id: userA });
    expect(await (await f.download(`${userA}/avatar.png`)).data!.text()).toBe('png-bytes');
    expect((await f.list(userA)).data!.map((e) => e.name)).toEqual(['avatar.png']);
    expect((await f.upload(`${userA}/avatar.png`, new Blob(['v2'], { type: 'image/png' }), { upsert: true })).error).toBeNull();
    expect((await f.createSignedUrl(`${userA}/avatar.png`, 60)).error).toBeNull();
    expect((await f.move(`${userA}/avatar.png`, `${userA}/renamed.png`)).error).toBeNull();
    const removed = await f.remove([`${userA}/renamed.png`]);
    expect(removed.data!.map((o) => o.name)).toEqual([`${userA}/renamed.png`]);
    expect(fs.existsSync(diskPath(b, `${userA}/renamed.png`))).toBe(false);
  });

  it("denies another user's folder (403) and hides their objects", async () => {
    expect((await clientA.storage.from(b).upload(`${userA}/private.txt`, new Blob(['mine'], { type: 'text/plain' }))).error).toBeNull();
    const before = await snapshot(b);

    const intoB = await clientA.storage.from(b).upload(`${userB}/evil.txt`, new Blob(['x'], { type: 'text/plain' }));
    expect(intoB.error).toMatchObject({ status: 400, statusCode: '403', message: 'new row violates row-level security policy' });

    const fb = clientB.storage.from(b);
    expect((await fb.download(`${userA}/private.txt`)).error).toMatchObject({ status: 400 });
    expect((await fb.info(`${userA}/private.txt`)).error).toMatchObject({ statusCode: '404' });
    expect((await fb.list(userA)).data).toEqual([]);
    expect((await fb.list()).data).toEqual([]);
    expect((await fb.createSignedUrl(`${userA}/private.txt`, 60)).error).toMatchObject({ statusCode: '404' });
    expect((await fb.createSignedUploadUrl(`${userA}/planted.txt`)).error).toMatchObject({ statusCode: '403' });
    expect((await fb.remove([`${userA}/private.txt`])).data).toEqual([]);
    expect((await fb.upload(`${userA}/private.txt`, new Blob(['overwrite'], { type: 'text/plain' }), { upsert: true })).error).toMatchObject({ statusCode: '403' });
    expect((await fb.move(`${userA}/private.txt`, `${userB}/stolen.txt`)).error).toMatchObject({ statusCode: '404' });
    expect((await clientA.storage.from(b).move(`${userA}/private.txt`, `${userB}/given.txt`)).error).toMatchObject({ statusCode: '403' });
    expect((await fb.copy(`${userA}/private.txt`, `${userB}/copy.txt`)).error).toMatchObject({ statusCode: '404' });
    const single = await raw('DELETE', `/object/${b}/${userA}/private.txt`, { token: await userToken(userB) });
    expect(single.body).toMatchObject({ statusCode: '403', message: 'Access denied' });

    expect(await snapshot(b)).toEqual(before);
    expect(fs.readFileSync(diskPath(b, `${userA}/private.txt`), 'utf8')).toBe('mine');
  });

  it('denies anon and lets service_role bypass RLS', async () => {
    const before = await snapshot(b);
    const res = await anon.storage.from(b).upload(`${userA}/anon.txt`, new Blob(['x'], { type: 'text/plain' }));
    expect(res.error).toMatchObject({ status: 400, statusCode: '403', message: 'new row violates row-level security policy' });
    expect((await anon.storage.from(b).list(userA)).data).toEqual([]);
    expect(await snapshot(b)).toEqual(before);

    const svc = await admin.storage.from(b).list(userA);
    expect(svc.data!.map((e) => e.name)).toContain('private.txt');
  });
});

describe('bad input', () => {
  let b: string;
  beforeAll(async () => {
    b = await bucket('bad', { fileSizeLimit: 1024, allowedMimeTypes: ['image/*', 'text/plain'] });
    await admin.storage.from(b).upload('keep/existing.txt', new Blob(['keep'], { type: 'text/plain' }));
  });

  it('answers 413 past the bucket limit and the global 50 MiB limit, storing nothing', async () => {
    const before = await snapshot(b);
    const big = await admin.storage.from(b).upload('big.png', new Blob([new Uint8Array(1025)], { type: 'image/png' }));
    expect(big.error).toMatchObject({ status: 400, statusCode: '413', message: 'The object exceeded the maximum allowed size' });
    const bigRaw = await admin.storage.from(b).upload('big-raw.png', Buffer.alloc(2048), { contentType: 'image/png' });
    expect(bigRaw.error).toMatchObject({ statusCode: '413' });
    expect(await snapshot(b)).toEqual(before);

    const unlimited = await bucket('unlimited');
    const huge = await admin.storage.from(unlimited).upload('huge.bin', Buffer.alloc(50 * 1024 * 1024 + 1), { contentType: 'application/octet-stream' });
    expect(huge.error).toMatchObject({ statusCode: '413' });
    expect(await snapshot(unlimited)).toMatchObject({ rows: [], files: {} });
  });

  it('survives clients that disconnect mid-upload (raw and multipart) without leftovers', async () => {
    const before = await snapshot(b);
    const tmpDir = path.join(config.dataDir, 'storage-tmp');
    const tmpBefore = new Set(fs.readdirSync(tmpDir));
    const bodies: [string, string][] = [
      ['text/plain', 'x'.repeat(500)],
      ['multipart/form-data; boundary=XYZ', '--XYZ\r\nContent-Disposition: form-data; name=""; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nabc'],
    ];
    for (const [type, partial] of bodies) {
      await new Promise<void>((resolve) => {
        const req = http.request(`${STORAGE_URL}/object/${b}/aborted/a.txt`, {
          method: 'POST',
          headers: { apikey: config.anonKey, authorization: `Bearer ${config.serviceRoleKey}`, 'content-type': type, 'content-length': '1000' },
        });
        req.on('error', () => resolve());
        req.write(partial);
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 200);
      });
    }
    const list = await admin.storage.from(b).list('aborted');
    expect(list).toEqual({ data: [], error: null });
    let leftovers: string[] = [];
    for (let i = 0; i < 20; i++) {
      leftovers = fs.readdirSync(tmpDir).filter((n) => !tmpBefore.has(n));
      if (leftovers.length === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(leftovers).toEqual([]);
    expect(await snapshot(b)).toEqual(before);
  });

  it('answers 415 for MIME types the bucket does not allow (wildcards apply)', async () => {
    const before = await snapshot(b);
    const json = await admin.storage.from(b).upload('x.json', new Blob(['{}'], { type: 'application/json' }));
    expect(json.error).toMatchObject({ status: 400, statusCode: '415', message: 'mime type application/json is not supported' });
    const res = await raw('POST', `/object/${b}/raw.json`, { body: '{}', headers: { 'content-type': 'application/json' } });
    expect(res.body).toEqual({ statusCode: '415', code: 'InvalidMimeType', error: 'invalid_mime_type', message: 'mime type application/json is not supported' });
    expect(await snapshot(b)).toEqual(before);
    // a 1×1 WebP: in a bucket with allowed types the bytes must match the declared type (storage-content.test.ts)
    const webp = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');
    expect((await admin.storage.from(b).upload('ok.webp', new Blob([webp], { type: 'image/webp' }))).error).toBeNull();
    await admin.storage.from(b).remove(['ok.webp']);
  });

  it('takes an empty-folder placeholder of 0 bytes of any type, and refuses one with bytes (413, storage-api uploader.ts)', async () => {
    const before = await snapshot(b);
    const full = await admin.storage.from(b).upload('folder/.emptyFolderPlaceholder', new Blob(['<html>'], { type: 'text/html' }));
    expect(full.error).toMatchObject({ status: 400, statusCode: '413', message: 'The object exceeded the maximum allowed size' });
    const fullRaw = await raw('POST', `/object/${b}/folder2/.emptyFolderPlaceholder`, { body: 'x', headers: { 'content-type': 'application/json' } });
    expect(fullRaw.body).toMatchObject({ statusCode: '413' });
    expect(await snapshot(b)).toEqual(before);
    const empty = await admin.storage.from(b).upload('folder/.emptyFolderPlaceholder', new Blob([], { type: 'application/json' }));
    expect(empty.error).toBeNull();
    expect(await objectRow(b, 'folder/.emptyFolderPlaceholder')).toMatchObject({ metadata: expect.objectContaining({ size: 0, mimetype: 'application/json' }) });
    await admin.storage.from(b).remove(['folder/.emptyFolderPlaceholder']);
  });

  it('refuses invalid keys and path traversal with InvalidKey, touching nothing outside the bucket', async () => {
    const before = await snapshot(b);
    for (const key of ['..%2F..%2Fescape.txt', 'a%2F..%2F..%2Fescape.txt', 'a//b.txt', 'ctl%01.txt', 'back%5Cslash.txt', 'emoji%F0%9F%98%80.txt', '.']) {
      const res = await raw('POST', `/object/${b}/${key}`, { body: 'x', headers: { 'content-type': 'text/plain' } });
      expect(res, key).toMatchObject({ status: 400, body: { statusCode: '400', code: 'InvalidKey' } });
    }
    const move = await admin.storage.from(b).move('keep/existing.txt', '../../escape.txt');
    expect(move.error).toMatchObject({ statusCode: '400', message: 'Invalid key: ../../escape.txt' });
    const copy = await admin.storage.from(b).copy('keep/existing.txt', 'a/../../../escape.txt');
    expect(copy.error).toMatchObject({ statusCode: '400' });
    const signUp = await raw('POST', `/object/upload/sign/${b}/..%2Fx.txt`, { body: '{}', headers: { 'content-type': 'application/json' } });
    expect(signUp.body).toMatchObject({ code: 'InvalidKey' });
    expect(await snapshot(b)).toEqual(before);
    expect(fs.existsSync(path.join(STORAGE_ROOT, 'escape.txt'))).toBe(false);
    expect(fs.existsSync(path.join(config.dataDir, 'escape.txt'))).toBe(false);
  });

  it('answers 404 for missing buckets and 400 for malformed bodies and tokens', async () => {
    const before = await snapshot(b);
    const noBucket = await admin.storage.from(`nobucket-${RUN}`).upload('a.txt', new Blob(['x'], { type: 'text/plain' }));
    expect(noBucket.error).toMatchObject({ status: 400, statusCode: '404', message: 'Bucket not found' });
    expect(fs.existsSync(path.join(STORAGE_ROOT, `nobucket-${RUN}`))).toBe(false);

    const malformed = await raw('POST', `/object/list/${b}`, { body: '{"prefix": ', headers: { 'content-type': 'application/json' } });
    expect(malformed).toMatchObject({ status: 400, body: { statusCode: '400' } });
    const noPrefix = await raw('POST', `/object/list/${b}`, { body: '{}', headers: { 'content-type': 'application/json' } });
    expect(noPrefix.body).toMatchObject({ statusCode: '400', message: "body must have required property 'prefix'" });
    const badSort = await raw('POST', `/object/list/${b}`, { body: JSON.stringify({ prefix: '', sortBy: { column: 'size' } }), headers: { 'content-type': 'application/json' } });
    expect(badSort.status).toBe(400);
    const badDelete = await raw('DELETE', `/object/${b}`, { body: JSON.stringify({ prefixes: 'keep/existing.txt' }), headers: { 'content-type': 'application/json' } });
    expect(badDelete.status).toBe(400);
    const badMove = await raw('POST', '/object/move', { body: '[1,2]', headers: { 'content-type': 'application/json' } });
    expect(badMove.status).toBe(400);
    const badSign = await raw('POST', `/object/sign/${b}/keep/existing.txt`, { body: JSON.stringify({ expiresIn: 'soon' }), headers: { 'content-type': 'application/json' } });
    expect(badSign.status).toBe(400);
    const badBucket = await raw('POST', '/bucket', { body: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(badBucket.status).toBe(400);

    const badJwt = await raw('POST', `/object/list/${b}`, { token: `${tokenA.slice(0, -4)}AAAA`, body: JSON.stringify({ prefix: '' }), headers: { 'content-type': 'application/json' } });
    expect(badJwt).toEqual({ status: 400, body: { statusCode: '403', code: 'AccessDenied', error: 'Unauthorized', message: 'invalid signature' } });
    const expired = await raw('POST', `/object/list/${b}`, { token: await userToken(userA, -60), body: JSON.stringify({ prefix: '' }), headers: { 'content-type': 'application/json' } });
    expect(expired.body).toMatchObject({ statusCode: '403', message: 'jwt expired' });
    const wrongSecret = await signJwt({ sub: userA, role: 'service_role' }, 'x'.repeat(40), 60);
    const forged = await raw('DELETE', `/object/${b}`, { token: wrongSecret, body: JSON.stringify({ prefixes: ['keep/existing.txt'] }), headers: { 'content-type': 'application/json' } });
    expect(forged.status).toBe(400);
    const unknown = await raw('GET', '/nothing-here');
    expect(unknown.status).toBe(404);

    expect(await snapshot(b)).toEqual(before);
  });
});
