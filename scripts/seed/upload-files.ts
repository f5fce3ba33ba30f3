/**
 * Puts the bytes of the demo portfolio files into Storage (bucket portfolio-files), so the
 * seeded files can be downloaded. seed.sql only creates the rows; run this after the stack
 * started with a fresh seed (the stack daemon does this itself after a fresh seed):
 *
 *   TEAMWERK_STACK_OFFSET=<n> npx tsx scripts/seed/upload-files.ts
 *
 * Uses the Storage API with the service role (upsert), the same bytes the generator measured
 * (scripts/seed/files.ts). Idempotent. Prints how many files were uploaded.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { stackConfig } from '../local-stack/config.ts';
import { demoFileBytes } from './files.ts';

/** Uploads every portfolio_files row's bytes; returns the number of files written. */
export async function uploadDemoFiles(): Promise<number> {
  const config = stackConfig();
  const db = new pg.Client({ connectionString: config.dbUrl });
  await db.connect();
  const supabase = createClient(config.apiUrl, config.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  });
  try {
    const { rows } = await db.query<{ object_path: string; mime_type: string; title: string }>(
      `select f.object_path, f.mime_type, p.title from public.portfolio_files f join public.portfolios p on p.id = f.portfolio_id order by f.id`);
    let done = 0;
    for (let i = 0; i < rows.length; i += 8) {
      await Promise.all(rows.slice(i, i + 8).map(async (r) => {
        const bytes = demoFileBytes(r.object_path, r.mime_type, r.title);
        const { error } = await supabase.storage.from('portfolio-files').upload(r.object_path, bytes, { contentType: r.mime_type, upsert: true });
        if (error) throw new Error(`${r.object_path}: ${error.message}`);
        done += 1;
      }));
    }
    return done;
  } finally {
    await db.end();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const n = await uploadDemoFiles();
  console.log(`uploaded ${n} demo portfolio files`);
}
