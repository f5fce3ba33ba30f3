/**
 * Reads per-function settings from `supabase/config.toml` (`[functions.<name>] verify_jwt = …`),
 * re-reading the file when its modification time changes.
 */
import { statSync, readFileSync } from 'node:fs';
import { parse } from 'smol-toml';

export interface FunctionSettings {
  /** Whether the platform checks the `Authorization: Bearer <jwt>` before the function runs. */
  verifyJwt: boolean;
  /** `enabled = false` hides a function (404) as `supabase functions serve` does. */
  enabled: boolean;
}

/** `[functions.<name>]` settings of a config.toml, re-read when the file changes. */
export class FunctionsConfig {
  private mtimeMs = -1;
  private functions: Record<string, Record<string, unknown>> = {};

  constructor(
    private readonly file: string,
    private readonly onError: (message: string) => void = () => undefined,
  ) {}

  /**
   * Settings for `name`. Defaults as in the Supabase CLI: `verify_jwt = true`, `enabled = true`.
   * A config that does not parse keeps the last good settings (and reports through `onError`).
   */
  settings(name: string): FunctionSettings {
    this.refresh();
    const entry = this.functions[name] ?? {};
    return {
      verifyJwt: entry.verify_jwt === undefined ? true : entry.verify_jwt === true,
      enabled: entry.enabled === undefined ? true : entry.enabled === true,
    };
  }

  private refresh(): void {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(this.file).mtimeMs;
    } catch {
      this.mtimeMs = -1;
      this.functions = {};
      return;
    }
    if (mtimeMs === this.mtimeMs) return;
    this.mtimeMs = mtimeMs;
    try {
      const doc = parse(readFileSync(this.file, 'utf8')) as Record<string, unknown>;
      const fns = doc.functions;
      this.functions = fns && typeof fns === 'object' ? (fns as Record<string, Record<string, unknown>>) : {};
    } catch (err) {
      this.onError(`cannot parse ${this.file}: ${String(err)}`);
    }
  }
}
