/**
 * The local stack's Storage service, mounted by the gateway at `/storage/v1`: a
 * storage-api-compatible HTTP surface (the routes storage-js v2 calls) over storage.buckets /
 * storage.objects and object bytes under `<dataDir>/storage/<bucket>/<key>`.
 * See buckets.ts and objects.ts for the routes, caller.ts for how requests are authorised.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StackContext, HttpService } from '../../types.ts';
import { resolveCaller, type Caller } from './caller.ts';
import { DiskStore } from './disk.ts';
import { ERRORS, fromPgError, StorageError } from './errors.ts';
import * as buckets from './buckets.ts';
import * as objects from './objects.ts';
import { sendError } from './respond.ts';
import { bucketAndKey, decodeSegment, type RouteRequest, type StorageContext } from './request.ts';
import { drain } from './upload.ts';

/**
 * Creates the Storage service. `handle(req, res, subpath)` answers every storage-api route
 * below `/storage/v1`; errors are answered in storage-api's shape (see errors.ts) and never
 * escape. `close()` has nothing to release (the pool belongs to the daemon).
 */
export async function createStorageService(ctx: StackContext): Promise<HttpService> {
  const disk = new DiskStore(ctx.config.dataDir);
  await disk.init();
  const sctx: StorageContext = { config: ctx.config, pool: ctx.pool, disk, log: ctx.log };

  return {
    async handle(req: IncomingMessage, res: ServerResponse, subpath: string) {
      const url = new URL(req.url ?? '/', 'http://storage.local');
      const r: RouteRequest = { req, res, url };
      try {
        await route(sctx, r, req.method ?? 'GET', subpath);
      } catch (err) {
        const error = err instanceof StorageError ? err : fromPgError(err);
        if (error.statusCode >= 500) {
          const cause = error.cause ?? err;
          ctx.log('storage', `${req.method} ${subpath} failed: ${(cause as Error)?.stack ?? String(cause)}`);
        }
        await drain(req).catch(() => undefined);
        if (res.headersSent) res.destroy();
        else sendError(res, error);
      }
    },
    async close() {},
  };
}

async function route(ctx: StorageContext, r: RouteRequest, method: string, subpath: string): Promise<void> {
  const caller = (allowInvalid = false): Promise<Caller> => resolveCaller(r.req, r.url, ctx.config.jwtSecret, allowInvalid);
  const notFound = (): never => {
    throw ERRORS.notFoundRoute(method, `/storage/v1${subpath}`);
  };
  const path = subpath.replace(/^\/+/, '');

  // ---------- buckets ----------
  if (path === 'bucket' || path === 'bucket/') {
    if (method === 'GET') return buckets.listBuckets(ctx, r, await caller());
    if (method === 'POST') return buckets.createBucket(ctx, r, await caller());
    return notFound();
  }
  let m = /^bucket\/([^/]+)\/empty$/.exec(path);
  if (m) {
    if (method === 'POST') return buckets.emptyBucket(ctx, r, await caller(), decodeSegment(m[1]!));
    return notFound();
  }
  m = /^bucket\/([^/]+)$/.exec(path);
  if (m) {
    const id = decodeSegment(m[1]!);
    if (method === 'GET') return buckets.getBucket(ctx, r, await caller(), id);
    if (method === 'PUT') return buckets.updateBucket(ctx, r, await caller(), id);
    if (method === 'DELETE') return buckets.deleteBucket(ctx, r, await caller(), id);
    return notFound();
  }

  // ---------- objects ----------
  if (path === 'object/move' && method === 'POST') return objects.moveObject(ctx, r, await caller());
  if (path === 'object/copy' && method === 'POST') return objects.copyObject(ctx, r, await caller());

  m = /^object\/list\/([^/]+)$/.exec(path);
  if (m && method === 'POST') return objects.listObjects(ctx, r, await caller(), decodeSegment(m[1]!));
  m = /^object\/list-v2\/([^/]+)$/.exec(path);
  if (m && method === 'POST') return objects.listObjectsV2(ctx, r, await caller(), decodeSegment(m[1]!));

  m = /^object\/upload\/sign\/(.+)$/.exec(path);
  if (m) {
    const { bucket, key } = bucketAndKey(m[1]!);
    if (method === 'POST') return objects.signUploadUrl(ctx, r, await caller(), bucket, key);
    if (method === 'PUT') return objects.uploadToSignedUrl(ctx, r, bucket, key);
    return notFound();
  }

  m = /^object\/sign\/(.+)$/.exec(path);
  if (m) {
    const { bucket, key } = bucketAndKey(m[1]!);
    if (!key) {
      if (method === 'POST') return objects.signUrls(ctx, r, await caller(), bucket);
      return notFound();
    }
    if (method === 'POST') return objects.signUrl(ctx, r, await caller(), bucket, key);
    if (method === 'GET' || method === 'HEAD') return objects.signedDownload(ctx, r, bucket, key, method === 'HEAD');
    return notFound();
  }

  m = /^object\/info\/(public|authenticated)\/(.+)$/.exec(path);
  if (m && method === 'GET') {
    const { bucket, key } = bucketAndKey(m[2]!);
    if (m[1] === 'public') return objects.objectInfo(ctx, r, null, bucket, key, true);
    return objects.objectInfo(ctx, r, await caller(), bucket, key, false);
  }
  m = /^object\/info\/(.+)$/.exec(path);
  if (m && method === 'GET') {
    const { bucket, key } = bucketAndKey(m[1]!);
    return objects.objectInfo(ctx, r, await caller(true), bucket, key, false);
  }

  m = /^object\/(public|authenticated)\/(.+)$/.exec(path);
  if (m && (method === 'GET' || method === 'HEAD')) {
    const { bucket, key } = bucketAndKey(m[2]!);
    const head = method === 'HEAD';
    if (m[1] === 'public') return objects.readObject(ctx, r, null, bucket, key, 'public', head);
    return objects.readObject(ctx, r, await caller(), bucket, key, 'authenticated', head);
  }

  m = /^object\/([^/]+)\/?$/.exec(path);
  if (m) {
    if (method === 'DELETE') return objects.deleteObjects(ctx, r, await caller(), decodeSegment(m[1]!));
    if (method === 'POST' || method === 'PUT') throw ERRORS.invalidKey('');
    return notFound();
  }

  m = /^object\/(.+)$/.exec(path);
  if (m) {
    const { bucket, key } = bucketAndKey(m[1]!);
    switch (method) {
      case 'POST':
      case 'PUT':
        return objects.uploadObject(ctx, r, await caller(), bucket, key, method);
      case 'GET':
      case 'HEAD':
        return objects.readObject(ctx, r, await caller(true), bucket, key, 'auto', method === 'HEAD');
      case 'DELETE':
        return objects.deleteObject(ctx, r, await caller(), bucket, key);
      default:
        return notFound();
    }
  }

  if (/^render\//.test(path)) throw ERRORS.invalidRequest('Image transformation is not enabled on the local stack');
  return notFound();
}
