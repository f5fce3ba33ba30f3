/**
 * `npm start`: starts the local stack (with demo data) when it is not running and serves the SPA
 * at http://127.0.0.1:5173 in the foreground until Ctrl-C. Stops the stack again on exit when
 * this command started it.
 */
import { spawn } from 'node:child_process';
import { ROOT_DIR, stackConfig } from './local-stack/config.ts';
import { startStack, stopStack, statusText } from './local-stack/cli.ts';

const DEMO_ACCOUNTS: [string, string][] = [
  ['free', 'free@teamwerk.test'],
  ['basic', 'basic@teamwerk.test'],
  ['premium', 'premium@teamwerk.test'],
  ['enterprise', 'enterprise@teamwerk.test'],
  ['admin', 'admin@teamwerk.test'],
  ['suspended', 'suspended@teamwerk.test'],
  ['legacy old_user', 'olduser@teamwerk.test'],
  ['unconfirmed', 'unconfirmed@teamwerk.test'],
];

async function main(): Promise<void> {
  const config = stackConfig();
  console.log('Starting the local stack (first start: bootstrap, migrations, demo data) ...');
  const { alreadyRunning } = await startStack(config);
  console.log(statusText(config));
  console.log('\nDemo accounts (password for all: Teamwerk!2026):');
  for (const [kind, email] of DEMO_ACCOUNTS) console.log(`  ${kind.padEnd(16)} ${email}`);
  console.log(`\nSPA: ${config.siteUrl}  (Ctrl-C stops the SPA${alreadyRunning ? '' : ' and the stack'})\n`);

  const vite = spawn('npm', ['run', 'dev', '-w', 'frontend'], {
    cwd: ROOT_DIR,
    stdio: 'inherit',
    env: { ...process.env, VITE_SUPABASE_URL: config.apiUrl, VITE_SUPABASE_ANON_KEY: config.anonKey },
  });
  let exiting = false;
  const exit = async (code: number) => {
    if (exiting) return;
    exiting = true;
    if (vite.exitCode === null) vite.kill('SIGTERM');
    if (!alreadyRunning) {
      console.log('\nStopping the local stack ...');
      await stopStack(config);
    }
    process.exit(code);
  };
  process.on('SIGINT', () => void exit(0));
  process.on('SIGTERM', () => void exit(0));
  vite.on('exit', (code) => void exit(code ?? 0));
}

main().catch((err: unknown) => {
  console.error((err as Error).message);
  process.exit(1);
});
