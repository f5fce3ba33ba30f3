/**
 * Runs the Deno contract test (scripts/local-stack/tests/deno/stripe_sdk_test.ts) against a
 * Stripe sandbox started here: the `stripe` SDK with createFetchHttpClient and
 * constructEventAsync with createSubtleCryptoProvider, as the Edge Functions use them.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT_DIR, stackConfig } from '../config.ts';
import { createStripeSandbox, type StripeSandbox } from '../services/stripe/index.ts';

let sandbox: StripeSandbox;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stripe-sandbox-deno-'));
  const config = { ...stackConfig({ TEAMWERK_STACK_OFFSET: '5000' }), dataDir };
  sandbox = await createStripeSandbox({ config, pool: undefined as never, mailer: undefined as never, log: () => {} }, { port: 0, webhookUrl: null });
});

afterAll(async () => {
  await sandbox?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

it('passes the Deno SDK test (fetch HTTP client, SubtleCrypto webhook verification)', async () => {
  const deno = path.join(ROOT_DIR, 'node_modules/.bin/deno');
  const args = ['test', '--allow-net=127.0.0.1', '--allow-env', '--allow-read', '--node-modules-dir=manual', 'scripts/local-stack/tests/deno/stripe_sdk_test.ts'];
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(deno, args, {
      cwd: ROOT_DIR,
      env: {
        ...process.env,
        STRIPE_SANDBOX_PORT: String(sandbox.port),
        DENO_NO_UPDATE_CHECK: '1',
        NO_COLOR: '1',
      },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (c) => resolve({ code: c, output: out }));
  });
  expect(output).toMatch(/ok \| 1 passed \(2 steps\) \| 0 failed/);
  expect(code, output).toBe(0);
}, 120_000);
