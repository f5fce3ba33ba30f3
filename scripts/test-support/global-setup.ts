/**
 * vitest global setup: makes sure the local stack of the current TEAMWERK_STACK_OFFSET runs;
 * stops it afterwards only when this setup started it.
 */
import { startStack, stopStack } from '../local-stack/cli.ts';
import { stackConfig } from '../local-stack/config.ts';

export default async function setup(): Promise<() => Promise<void>> {
  const config = stackConfig();
  const { alreadyRunning } = await startStack(config);
  return async () => {
    if (!alreadyRunning) await stopStack(config);
  };
}
