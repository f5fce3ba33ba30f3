/**
 * The Storage stand-in checks what hosted storage-api checks and nothing more (issue 29 §5): the
 * declared Content-Type against the bucket's allowed MIME types (storage-api
 * `src/storage/uploader.ts` validateMimeType: 400 with statusCode "415"), never the bytes; objects
 * are served with their stored type and without `X-Content-Type-Options`
 * (`src/storage/renderer/renderer.ts`). The product's own content check is the `upload` function
 * (supabase/tests/uploads.test.ts). Driven with supabase-js as the service role, which Storage's
 * policies do not restrict, against the real buckets of the migrations.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { serviceClient } from '../../test-support/clients.ts';

const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.domain)</script></body></html>');
const admin = serviceClient();
const folder = `parity-${randomUUID()}`;

afterAll(async () => {
  for (const bucket of ['avatars', 'portfolio-files']) {
    const listed = await admin.storage.from(bucket).list(folder);
    const names = (listed.data ?? []).map((o) => `${folder}/${o.name}`);
    if (names.length) await admin.storage.from(bucket).remove(names);
  }
});

describe('the storage stand-in answers as storage-api', () => {
  it('stores bytes of another type under an allowed declared type (storage-api reads only the Content-Type)', async () => {
    const name = `${folder}/not-an-image.png`;
    const res = await admin.storage.from('avatars').upload(name, HTML, { contentType: 'image/png' });
    expect(res.error).toBeNull();
    const served = await fetch(admin.storage.from('avatars').getPublicUrl(name).data.publicUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBeNull();
    expect(Buffer.from(await served.arrayBuffer()).equals(HTML)).toBe(true);
  });

  it('refuses a declared type the bucket does not allow: 400 with statusCode 415', async () => {
    const res = await admin.storage.from('avatars').upload(`${folder}/page.html`, HTML, { contentType: 'text/html' });
    expect(res.error).toMatchObject({ status: 400, statusCode: '415' });
    expect(res.error!.message).toMatch(/not supported/);
  });
});
