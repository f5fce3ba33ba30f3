/**
 * Issue 12 ("Also: avatars accept non-image bytes and are served without nosniff"): in a
 * bucket with allowed MIME types the Storage service checks the bytes (magic number) against
 * the declared type, not only the Content-Type header, and answers storage-api's 415
 * InvalidMimeType (HTTP 400) otherwise, storing nothing; every object response carries
 * `X-Content-Type-Options: nosniff` and the stored content type. Driven with supabase-js as a
 * signed-in user against the real `avatars` and `portfolio-files` buckets of the migrations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import type pg from 'pg';
import { demoFileBytes } from '../../seed/files.ts';
import { config, serviceClient, signedInClient, superuserDb } from '../../test-support/clients.ts';

const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.domain)</script></body></html>');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>');
/** A 1×1 lossless WebP. */
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

let db: pg.Client;
let user: { client: SupabaseClient; userId: string; accessToken: string };
let png: Uint8Array<ArrayBuffer>;
let pdf: Uint8Array<ArrayBuffer>;

async function rowCount(bucket: string, name: string): Promise<number> {
  return (await db.query(`select count(*)::int as n from storage.objects where bucket_id = $1 and name = $2`, [bucket, name])).rows[0].n as number;
}

beforeAll(async () => {
  db = await superuserDb();
  user = await signedInClient();
  png = new Uint8Array(demoFileBytes(`${user.userId}/a.png`, 'image/png', 'Avatar'));
  pdf = new Uint8Array(demoFileBytes(`${user.userId}/1/cv.pdf`, 'application/pdf', 'CV'));
});
afterAll(async () => {
  if (user) await serviceClient().auth.admin.deleteUser(user.userId);
  await db?.end();
});

describe('avatars: the bytes must be one of the allowed image types', () => {
  it.each([
    ['HTML as image/png (multipart)', () => new Blob([HTML], { type: 'image/png' }), undefined],
    ['HTML as image/png (raw body)', () => HTML, 'image/png'],
    ['SVG with script as image/png', () => new Blob([SVG], { type: 'image/png' }), undefined],
    ['a PDF as image/jpeg', () => pdf, 'image/jpeg'],
    ['a PNG declared as image/gif', () => png, 'image/gif'],
    ['empty bytes as image/webp', () => Buffer.alloc(0), 'image/webp'],
  ] as const)('refuses %s with 415 and stores nothing', async (_label, body, contentType) => {
    const name = `${user.userId}/avatar-${Math.random().toString(36).slice(2)}.png`;
    const res = await user.client.storage.from('avatars').upload(name, body(), contentType ? { contentType } : {});
    expect(res.error).toMatchObject({ status: 400, statusCode: '415' });
    expect(res.error!.message).toMatch(/does not match|not supported/);
    expect(await rowCount('avatars', name)).toBe(0);
  });

  it('refuses HTML through a signed upload URL too', async () => {
    const name = `${user.userId}/signed.png`;
    const signed = await user.client.storage.from('avatars').createSignedUploadUrl(name);
    expect(signed.error).toBeNull();
    const res = await user.client.storage.from('avatars').uploadToSignedUrl(name, signed.data!.token, new Blob([HTML], { type: 'image/png' }));
    expect(res.error).toMatchObject({ statusCode: '415' });
    expect(await rowCount('avatars', name)).toBe(0);
  });

  it('refuses copying a PDF from portfolio-files into avatars', async () => {
    const source = `${user.userId}/1/cv.pdf`;
    expect((await user.client.storage.from('portfolio-files').upload(source, pdf, { contentType: 'application/pdf' })).error).toBeNull();
    const copied = await user.client.storage.from('portfolio-files').copy(source, `${user.userId}/copied.png`, { destinationBucket: 'avatars' });
    expect(copied.error).toMatchObject({ statusCode: '415' });
    expect(await rowCount('avatars', `${user.userId}/copied.png`)).toBe(0);
  });

  it('stores real PNG and WebP avatars and serves every object with nosniff and the stored type', async () => {
    const pngName = `${user.userId}/avatar.png`;
    const webpName = `${user.userId}/avatar.webp`;
    expect((await user.client.storage.from('avatars').upload(pngName, new Blob([png], { type: 'image/png' }))).error).toBeNull();
    expect((await user.client.storage.from('avatars').upload(webpName, WEBP, { contentType: 'image/webp' })).error).toBeNull();

    const publicUrl = user.client.storage.from('avatars').getPublicUrl(pngName).data.publicUrl;
    const signed = (await user.client.storage.from('avatars').createSignedUrl(webpName, 60)).data!.signedUrl;
    const authed = `${config.apiUrl}/storage/v1/object/authenticated/avatars/${pngName}`;
    for (const [url, type, init] of [
      [publicUrl, 'image/png', {}],
      [signed, 'image/webp', {}],
      [authed, 'image/png', { headers: { authorization: `Bearer ${user.accessToken}`, apikey: config.anonKey } }],
      [publicUrl, 'image/png', { method: 'HEAD' }],
    ] as const) {
      const res = await fetch(url, init);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('x-content-type-options'), url).toBe('nosniff');
      expect(res.headers.get('content-type'), url).toBe(type);
      await res.arrayBuffer();
    }
  });
});

describe('portfolio-files: documents are checked as well', () => {
  it('refuses HTML declared as application/pdf and accepts a real PDF', async () => {
    const bad = `${user.userId}/2/fake.pdf`;
    const refused = await user.client.storage.from('portfolio-files').upload(bad, HTML, { contentType: 'application/pdf' });
    expect(refused.error).toMatchObject({ statusCode: '415' });
    expect(await rowCount('portfolio-files', bad)).toBe(0);
    const good = `${user.userId}/2/real.pdf`;
    expect((await user.client.storage.from('portfolio-files').upload(good, pdf, { contentType: 'application/pdf' })).error).toBeNull();
    const signed = (await user.client.storage.from('portfolio-files').createSignedUrl(good, 60, { download: 'real.pdf' })).data!.signedUrl;
    const res = await fetch(signed);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
    await res.arrayBuffer();
  });
});
