/**
 * How tests and benchmarks start a browser (developers' guide: the environment): Debian's
 * Chromium, never a downloaded one, with the flags it needs here (`--no-sandbox` as root; no
 * background, update or sync traffic and no QUIC, as the machine has no internet).
 */

/** Path of Debian's Chromium. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Command-line flags for every Chromium the project starts. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];
