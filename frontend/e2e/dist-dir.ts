/**
 * Where the production build for the browser tests goes, relative to `frontend/`: `dist` for the
 * default stack (offset 0), else the stack's own data folder, so helpers running e2e at the same
 * time never serve each other's build. Input: the stack offset (TEAMWERK_STACK_OFFSET). Used by
 * frontend/playwright.config.ts (its web server) and scripts/test.ts (the e2e:build step).
 */
export function e2eDistDir(offset: number): string {
  return offset ? `../.stack/offset-${offset}/e2e-dist` : 'dist';
}
