/**
 * How tests and benchmarks start a browser (developers' guide: the environment): Debian's
 * Chromium, never a downloaded one, with the flags it needs here (`--no-sandbox` as root; no
 * background, update or sync traffic and no QUIC, as the machine has no internet).
 */

/** Path of Debian's Chromium. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Command-line flags for every Chromium the project starts. `--disable-gpu-rasterization` undoes
 * the `--enable-gpu-rasterization` that Debian's wrapper (/etc/chromium.d/default-flags) adds:
 * without a GPU that rasterizes through SwiftShader, the CPU emulating a GPU, which a visitor's
 * browser never does (it has a GPU or rasterizes in software, Chromium's default here). Measured on
 * three browser-test files (look and feel, cards, settings; 6 tests, two runs each): 135-159
 * CPU-seconds of the whole machine instead of 152-174, about a tenth less; the browser tests keep
 * both cores busy (96 % during the e2e step of a fresh-clone run), so the step shortens by as much.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--disable-gpu-rasterization',
];
