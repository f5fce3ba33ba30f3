/**
 * Runs the Stripe sandbox alone, without the rest of the stack:
 *   TEAMWERK_STACK_OFFSET=<n> npx tsx scripts/local-stack/services/stripe/serve.ts
 * It listens on ports.stripe of that offset and keeps its state in `<dataDir>/stripe/`. Stop it
 * with Ctrl-C (state is written on exit).
 */
import { stackConfig } from '../../config.ts';
import { createStripeSandbox } from './index.ts';

const config = stackConfig();
const sandbox = await createStripeSandbox({
  config,
  pool: undefined as never,
  mailer: undefined as never,
  log: (scope, message, extra) => console.log(`[${scope}] ${message}`, extra ?? ''),
});

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await sandbox.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
