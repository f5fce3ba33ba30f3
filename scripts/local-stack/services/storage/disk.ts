/**
 * The local disk backend: object bytes at `<dataDir>/storage/<bucket>/<key>`.
 *
 * Writes go to a temp file in `<dataDir>/storage-tmp` (same filesystem) and are renamed into
 * place. Each change is staged so the caller can keep the database row and the file
 * consistent: `place()`/`remove()` return a handle whose `undo()` restores the previous state
 * (used when the transaction rolls back) and whose `finish()` drops the backup (after commit).
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { ERRORS } from './errors.ts';

/** A staged change on disk. */
export interface StagedChange {
  /** Restores what was there before (best effort, never throws). */
  undo(): Promise<void>;
  /** Drops the backup once the database change is committed (never throws). */
  finish(): Promise<void>;
}

/** A body written to a temp file. */
export interface TempFile {
  path: string;
  size: number;
  /** Hex MD5 of the bytes (the S3-style eTag without quotes). */
  md5: string;
}

/** Bytes read (and dropped) past a limit before the connection is cut. */
const DRAIN_CAP = 256 * 1024 * 1024;

export class DiskStore {
  readonly root: string;
  readonly tmpDir: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'storage');
    this.tmpDir = path.join(dataDir, 'storage-tmp');
  }

  /**
   * Creates the storage and temp folders (idempotent). Temp files left by a previous run
   * (a crash mid-upload) are removed: at start no upload is in flight.
   */
  async init(): Promise<void> {
    await fsp.mkdir(this.root, { recursive: true });
    await fsp.rm(this.tmpDir, { recursive: true, force: true });
    await fsp.mkdir(this.tmpDir, { recursive: true });
  }

  /**
   * Absolute path of an object's bytes. Keys and bucket names are validated before they get
   * here; this re-checks that the path stays inside the bucket folder.
   * Errors: 400 InvalidKey when it would not.
   */
  objectPath(bucket: string, key: string): string {
    const bucketDir = path.join(this.root, bucket);
    const p = path.join(bucketDir, ...key.split('/'));
    if (bucket === '.' || bucket === '..' || bucket.includes('/') || !p.startsWith(bucketDir + path.sep)) {
      throw ERRORS.invalidKey(key);
    }
    return p;
  }

  /** Absolute path of a bucket's folder. */
  bucketPath(bucket: string): string {
    return path.join(this.root, bucket);
  }

  private tmpPath(): string {
    return path.join(this.tmpDir, randomUUID());
  }

  /**
   * Streams `body` to a temp file, computing size and MD5. Past `limit` bytes it stops
   * writing but keeps reading (up to a further 256 MiB) so the client can still read the
   * answer, then fails with 413; the temp file is removed on every failure.
   */
  async writeTemp(body: Readable, limit: number): Promise<TempFile> {
    const tmp = this.tmpPath();
    const out = fs.createWriteStream(tmp, { flags: 'wx' });
    const hash = createHash('md5');
    let size = 0;
    let failure: unknown = null;
    await new Promise<void>((resolve) => {
      let settled = false;
      const done = () => {
        if (!settled) {
          settled = true;
          resolve();
        }
      };
      body.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (failure) {
          if (size > limit + DRAIN_CAP) body.destroy();
          return;
        }
        if (size > limit) {
          failure = ERRORS.entityTooLarge();
          return;
        }
        hash.update(chunk);
        if (!out.write(chunk)) {
          body.pause();
          out.once('drain', () => body.resume());
        }
      });
      body.once('end', done);
      body.once('error', (err) => {
        // a client that disconnects mid-body is a bad request, not a server failure
        failure ??= (err as NodeJS.ErrnoException).code === 'ECONNRESET' || err.message === 'aborted'
          ? ERRORS.noContentProvided('Request stream closed before upload could complete')
          : err;
        done();
      });
      body.once('close', () => {
        if (!body.readableEnded) failure ??= ERRORS.noContentProvided('Request stream closed before upload could complete');
        done();
      });
      out.once('error', (err) => {
        failure ??= err;
        body.resume();
      });
    });
    out.end();
    await finished(out).catch((err: unknown) => {
      failure ??= err;
    });
    if (failure) {
      await fsp.rm(tmp, { force: true }).catch(() => undefined);
      throw failure;
    }
    return { path: tmp, size, md5: hash.digest('hex') };
  }

  /** Copies an object's bytes to a temp file (for copy). Errors: 404 when the bytes are missing. */
  async copyToTemp(bucket: string, key: string): Promise<TempFile> {
    const src = this.objectPath(bucket, key);
    try {
      return await this.writeTemp(fs.createReadStream(src), Number.MAX_SAFE_INTEGER);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw ERRORS.noSuchKey();
      throw err;
    }
  }

  /** Removes a temp file (never throws). */
  async discard(tmp: TempFile | null | undefined): Promise<void> {
    if (tmp) await fsp.rm(tmp.path, { force: true }).catch(() => undefined);
  }

  /**
   * Renames a temp file to the object's path, keeping the previous bytes (if any) as a backup
   * until `finish()`. Errors: 400 InvalidKey when the key collides with an existing object
   * used as a folder (or the reverse) on the local disk layout.
   */
  async place(tmp: TempFile, bucket: string, key: string): Promise<StagedChange> {
    const dest = this.objectPath(bucket, key);
    const backup = await this.moveAside(dest);
    try {
      await fsp.mkdir(path.dirname(dest), { recursive: true });
      await fsp.rename(tmp.path, dest);
    } catch (err) {
      if (backup) await fsp.rename(backup, dest).catch(() => undefined);
      throw mapLayoutError(err, key);
    }
    return {
      undo: async () => {
        await fsp.rm(dest, { force: true }).catch(() => undefined);
        if (backup) await fsp.rename(backup, dest).catch(() => undefined);
        else await this.prune(bucket, path.dirname(dest));
      },
      finish: async () => {
        if (backup) await fsp.rm(backup, { force: true }).catch(() => undefined);
      },
    };
  }

  /** Moves an object's bytes aside (delete); `undo()` puts them back, `finish()` drops them. */
  async remove(bucket: string, key: string): Promise<StagedChange> {
    const p = this.objectPath(bucket, key);
    const backup = await this.moveAside(p);
    return {
      undo: async () => {
        if (!backup) return;
        await fsp.mkdir(path.dirname(p), { recursive: true }).catch(() => undefined);
        await fsp.rename(backup, p).catch(() => undefined);
      },
      finish: async () => {
        if (backup) await fsp.rm(backup, { force: true }).catch(() => undefined);
        await this.prune(bucket, path.dirname(p));
      },
    };
  }

  /** Moves bytes from one object path to another (move). Errors: 404 when the source bytes are missing. */
  async move(srcBucket: string, srcKey: string, dstBucket: string, dstKey: string): Promise<StagedChange> {
    const src = this.objectPath(srcBucket, srcKey);
    const dst = this.objectPath(dstBucket, dstKey);
    if (!fs.existsSync(src)) throw ERRORS.noSuchKey();
    const backup = await this.moveAside(dst);
    try {
      await fsp.mkdir(path.dirname(dst), { recursive: true });
      await fsp.rename(src, dst);
    } catch (err) {
      if (backup) await fsp.rename(backup, dst).catch(() => undefined);
      throw mapLayoutError(err, dstKey);
    }
    return {
      undo: async () => {
        await fsp.mkdir(path.dirname(src), { recursive: true }).catch(() => undefined);
        await fsp.rename(dst, src).catch(() => undefined);
        if (backup) await fsp.rename(backup, dst).catch(() => undefined);
        else await this.prune(dstBucket, path.dirname(dst));
      },
      finish: async () => {
        if (backup) await fsp.rm(backup, { force: true }).catch(() => undefined);
        await this.prune(srcBucket, path.dirname(src));
      },
    };
  }

  /** Removes a bucket's folder (after the bucket row is deleted; never throws). */
  async removeBucketDir(bucket: string): Promise<void> {
    if (bucket === '.' || bucket === '..' || bucket.includes('/')) return;
    await fsp.rm(this.bucketPath(bucket), { recursive: true, force: true }).catch(() => undefined);
  }

  /** Renames an existing file to a backup in the temp folder; returns its path or null. */
  private async moveAside(p: string): Promise<string | null> {
    const backup = this.tmpPath();
    try {
      const st = await fsp.stat(p);
      if (!st.isFile()) return null;
      await fsp.rename(p, backup);
      return backup;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return null;
      throw err;
    }
  }

  /** Removes empty folders from `dir` up to (not including) the bucket folder. */
  private async prune(bucket: string, dir: string): Promise<void> {
    const stop = this.bucketPath(bucket);
    let current = dir;
    while (current.startsWith(stop + path.sep)) {
      try {
        await fsp.rmdir(current);
      } catch {
        return;
      }
      current = path.dirname(current);
    }
  }
}

function mapLayoutError(err: unknown, key: string): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  // `a` is a file and `a/b` is uploaded (or the reverse): S3 allows both, a folder tree cannot.
  if (code === 'ENOTDIR' || code === 'EISDIR' || code === 'EEXIST' || code === 'ENOTEMPTY') return ERRORS.invalidKey(key);
  return err;
}
