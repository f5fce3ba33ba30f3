/**
 * Uploads are the product's to check (issue 29 §5; issue 12 "avatars accept non-image bytes"):
 * hosted storage-api compares only the declared Content-Type, so every file goes through the
 * `upload` Edge Function, which reads the bytes and stores the object with the caller's session;
 * Storage's policies accept an insert (or an overwrite) only with the grant that function creates,
 * so nothing reaches Storage around it. Driven with supabase-js (functions.invoke with a form,
 * storage) as signed-in users against the running stack.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import type pg from 'pg';
import { demoFileBytes } from '../../scripts/seed/files.ts';
import { config, serviceClient, signedInClient, superuserDb } from '../../scripts/test-support/clients.ts';

const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.domain)</script></body></html>');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>');
/** A 1×1 lossless WebP. */
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

let db: pg.Client;
let user: { client: SupabaseClient; userId: string; accessToken: string };
let other: { client: SupabaseClient; userId: string; accessToken: string };
let png: Buffer;
let pdf: Buffer;

async function rowCount(bucket: string, prefix: string): Promise<number> {
  return (await db.query(`select count(*)::int as n from storage.objects where bucket_id = $1 and name like $2 || '%'`, [bucket, prefix])).rows[0].n as number;
}

/** The upload function's answer: status and JSON body (fields read one by one). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are inspected field by field
type Answer = { status: number; body: Record<string, any> };

/** Calls the upload function as `as` with the form fields; answers status and body. */
async function upload(as: SupabaseClient, bucket: string, path: string, bytes: Buffer, type: string): Promise<Answer> {
  const form = new FormData();
  form.set('bucket', bucket);
  form.set('path', path);
  form.set('file', new Blob([new Uint8Array(bytes)], { type }), path.split('/').at(-1));
  const { data, error } = await as.functions.invoke('upload', { body: form });
  if (!error) return { status: 201, body: data as Answer['body'] };
  const response = (error as { context?: Response }).context;
  return { status: response?.status ?? 0, body: response ? ((await response.json()) as Answer['body']) : {} };
}

beforeAll(async () => {
  db = await superuserDb();
  user = await signedInClient();
  other = await signedInClient();
  png = Buffer.from(demoFileBytes(`${user.userId}/a.png`, 'image/png', 'Avatar'));
  pdf = Buffer.from(demoFileBytes(`${user.userId}/1/cv.pdf`, 'application/pdf', 'CV'));
});
afterAll(async () => {
  for (const u of [user, other]) if (u) await serviceClient().auth.admin.deleteUser(u.userId);
  await db?.end();
});

describe('the upload function checks the bytes', () => {
  it.each([
    ['HTML as image/png', HTML, 'image/png', 'content_mismatch'],
    ['SVG with script as image/png', SVG, 'image/png', 'content_mismatch'],
    ['a PDF as image/jpeg', () => pdf, 'image/jpeg', 'content_mismatch'],
    ['a PNG declared as image/gif', () => png, 'image/gif', 'content_mismatch'],
    ['empty bytes as image/webp', Buffer.alloc(0), 'image/webp', 'content_mismatch'],
    ['HTML as text/html', HTML, 'text/html', 'unsupported_media_type'],
  ] as const)('refuses %s with 415 and stores nothing', async (_label, bytes, type, code) => {
    const folder = `${user.userId}/check-${Math.random().toString(36).slice(2)}`;
    const res = await upload(user.client, 'avatars', `${folder}/avatar.png`, typeof bytes === 'function' ? bytes() : bytes, type);
    expect([res.status, res.body.error?.code]).toEqual([415, code]);
    expect(await rowCount('avatars', folder)).toBe(0);
  });

  it('stores real PNG and WebP avatars under a name with a random part, served with their type', async () => {
    const first = await upload(user.client, 'avatars', `${user.userId}/avatar.png`, png, 'image/png');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ bucket: 'avatars', mimeType: 'image/png', size: png.length });
    expect(first.body.path).toMatch(new RegExp(`^${user.userId}/[a-z0-9]{12}-avatar\\.png$`));
    const second = await upload(user.client, 'avatars', `${user.userId}/avatar.webp`, WEBP, 'image/webp');
    expect(second.status).toBe(201);
    const res = await fetch(user.client.storage.from('avatars').getPublicUrl(first.body.path).data.publicUrl);
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
  });

  it('checks documents too: HTML declared as a PDF is refused, a real PDF stored', async () => {
    const refused = await upload(user.client, 'portfolio-files', `${user.userId}/2/fake.pdf`, HTML, 'application/pdf');
    expect(refused.status).toBe(415);
    const stored = await upload(user.client, 'portfolio-files', `${user.userId}/2/real.pdf`, pdf, 'application/pdf');
    expect(stored.status).toBe(201);
    expect(await rowCount('portfolio-files', `${user.userId}/2/`)).toBe(1);
  });

  it("the bucket's policies still decide where: another member's folder is 403", async () => {
    const res = await upload(user.client, 'avatars', `${other.userId}/avatar.png`, png, 'image/png');
    expect([res.status, res.body.error?.code]).toEqual([403, 'forbidden']);
    expect(await rowCount('avatars', `${other.userId}/`)).toBe(0);
    const anonymous = await fetch(`${config.apiUrl}/functions/v1/upload`, { method: 'POST', headers: { apikey: config.anonKey } });
    expect(anonymous.status).toBe(401);
  });
});

describe('nothing reaches Storage around the function', () => {
  it('a direct upload with the right bytes is refused by the policies', async () => {
    const name = `${user.userId}/direct.png`;
    const res = await user.client.storage.from('avatars').upload(name, png, { contentType: 'image/png' });
    expect(res.error).not.toBeNull();
    expect(await rowCount('avatars', name)).toBe(0);
    const signed = await user.client.storage.from('avatars').createSignedUploadUrl(`${user.userId}/signed.png`);
    if (!signed.error) {
      const put = await user.client.storage.from('avatars').uploadToSignedUrl(`${user.userId}/signed.png`, signed.data.token, png, { contentType: 'image/png' });
      expect(put.error).not.toBeNull();
    }
    expect(await rowCount('avatars', `${user.userId}/signed.png`)).toBe(0);
  });

  it('a checked object cannot be overwritten, copied or moved into with other bytes', async () => {
    const stored = await upload(user.client, 'avatars', `${user.userId}/keep.png`, png, 'image/png');
    expect(stored.status).toBe(201);
    const path = stored.body.path as string;
    const overwrite = await user.client.storage.from('avatars').update(path, HTML, { contentType: 'image/png' });
    expect(overwrite.error).not.toBeNull();
    const res = await fetch(user.client.storage.from('avatars').getPublicUrl(path).data.publicUrl);
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
    const doc = await upload(user.client, 'portfolio-files', `${user.userId}/3/cv.pdf`, pdf, 'application/pdf');
    const copied = await user.client.storage.from('portfolio-files').copy(doc.body.path as string, `${user.userId}/copied.png`, { destinationBucket: 'avatars' });
    expect(copied.error).not.toBeNull();
    const moved = await user.client.storage.from('avatars').move(path, `${user.userId}/moved.png`);
    expect(moved.error).not.toBeNull();
    expect(await rowCount('avatars', `${user.userId}/copied.png`) + (await rowCount('avatars', `${user.userId}/moved.png`))).toBe(0);
  });
});
