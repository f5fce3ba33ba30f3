/**
 * Browser contract test for Storage: a real Chromium page (another origin, so CORS applies)
 * loads supabase-js's UMD build, takes a File from an <input type="file"> and a Blob built in
 * the page, uploads them as a signed-in user into their own folder (RLS policy as the product
 * uses it), downloads one back and fetches a public URL — the way the SPA does it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import { chromium, type Browser } from 'playwright-core';
import type pg from 'pg';
import { config, serviceClient, signedInClient, superuserDb } from '../../test-support/clients.ts';
import { ROOT_DIR } from '../config.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../chromium.ts';

const RUN = randomUUID().slice(0, 8);
const BUCKET = `browser-${RUN}`;
const POLICY = `browser_own_folder_${RUN}`;
let userId: string;
let token: string;
const UMD = path.join(ROOT_DIR, 'node_modules/@supabase/supabase-js/dist/umd/supabase.js');

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>storage test</title><script src="/supabase.js"></script></head>
<body><input id="file" type="file">
<script>
  window.runUpload = async (apiUrl, anonKey, token, bucket, folder) => {
    const client = supabase.createClient(apiUrl, anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      global: { headers: { Authorization: 'Bearer ' + token } },
    });
    const file = document.getElementById('file').files[0];
    const storage = client.storage.from(bucket);
    const fromInput = await storage.upload(folder + '/' + file.name, file, { upsert: true });
    const blob = new Blob(['made in the browser'], { type: 'text/plain' });
    const fromBlob = await storage.upload(folder + '/note.txt', blob);
    const dl = await storage.download(folder + '/' + file.name);
    const bytes = dl.data ? Array.from(new Uint8Array(await dl.data.arrayBuffer())) : null;
    const denied = await storage.upload('someone-else/' + file.name, file);
    const listed = await storage.list(folder);
    return {
      fromInput: { data: fromInput.data, error: fromInput.error && { message: fromInput.error.message, statusCode: fromInput.error.statusCode } },
      fromBlob: { data: fromBlob.data, error: fromBlob.error && fromBlob.error.message },
      downloaded: bytes,
      denied: denied.error && { message: denied.error.message, statusCode: denied.error.statusCode },
      listed: listed.data && listed.data.map((e) => e.name),
    };
  };
  window.fetchText = async (url) => {
    const res = await fetch(url);
    return { status: res.status, text: await res.text() };
  };
</script></body></html>`;

let server: http.Server;
let pageUrl: string;
let browser: Browser;
let db: pg.Client;
let tmpDir: string;

beforeAll(async () => {
  db = await superuserDb();
  const user = await signedInClient();
  [userId, token] = [user.userId, user.accessToken];
  const { error } = await serviceClient().storage.createBucket(BUCKET, { public: true, allowedMimeTypes: ['image/png', 'text/plain'] });
  expect(error).toBeNull();
  const mine = `bucket_id = '${BUCKET}' and (storage.foldername(name))[1] = (select auth.uid())::text`;
  await db.query(`create policy "${POLICY}_insert" on storage.objects for insert to authenticated with check (${mine})`);
  await db.query(`create policy "${POLICY}_select" on storage.objects for select to authenticated using (${mine})`);
  await db.query(`create policy "${POLICY}_update" on storage.objects for update to authenticated using (${mine}) with check (${mine})`);

  server = http.createServer((req, res) => {
    if (req.url === '/supabase.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      fs.createReadStream(UMD).pipe(res);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storage-browser-'));
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS],
  });
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  const admin = serviceClient();
  await admin.storage.emptyBucket(BUCKET);
  await admin.storage.deleteBucket(BUCKET);
  if (userId) await admin.auth.admin.deleteUser(userId);
  for (const op of ['insert', 'select', 'update']) await db?.query(`drop policy if exists "${POLICY}_${op}" on storage.objects`);
  await db?.end();
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
});

describe('storage from a real browser', () => {
  it('uploads a File from a file input and a Blob as the signed-in user, RLS enforced', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const filePath = path.join(tmpDir, 'avatar.png');
    fs.writeFileSync(filePath, png);

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(pageUrl);
    await page.setInputFiles('#file', filePath);
    const result = await page.evaluate(
      ([apiUrl, anonKey, jwt, bucket, folder]) =>
        (window as unknown as { runUpload: (...a: string[]) => Promise<Record<string, unknown>> }).runUpload(apiUrl!, anonKey!, jwt!, bucket!, folder!),
      [config.apiUrl, config.anonKey, token, BUCKET, userId],
    );

    expect(result.fromInput).toMatchObject({ data: { path: `${userId}/avatar.png`, fullPath: `${BUCKET}/${userId}/avatar.png` }, error: null });
    expect(result.fromBlob).toMatchObject({ error: null });
    expect(Buffer.from(result.downloaded as number[])).toEqual(png);
    expect(result.denied).toEqual({ message: 'new row violates row-level security policy', statusCode: '403' });
    expect(result.listed).toEqual(['avatar.png', 'note.txt']);

    const row = (await db.query('select owner_id, metadata from storage.objects where bucket_id = $1 and name = $2', [BUCKET, `${userId}/avatar.png`])).rows[0];
    expect(row.owner_id).toBe(userId);
    expect(row.metadata).toMatchObject({ mimetype: 'image/png', size: png.length, eTag: `"${createHash('md5').update(png).digest('hex')}"` });
    const onDisk = fs.readFileSync(path.join(config.dataDir, 'storage', BUCKET, userId, 'avatar.png'));
    expect(onDisk).toEqual(png);
    expect((await db.query('select count(*)::int as n from storage.objects where bucket_id = $1 and name like $2', [BUCKET, 'someone-else/%'])).rows[0].n).toBe(0);

    const publicUrl = serviceClient().storage.from(BUCKET).getPublicUrl(`${userId}/note.txt`).data.publicUrl;
    const fetched = await page.evaluate((url) => (window as unknown as { fetchText: (u: string) => Promise<{ status: number; text: string }> }).fetchText(url), publicUrl);
    expect(fetched).toEqual({ status: 200, text: 'made in the browser' });
    await context.close();
  });
});
