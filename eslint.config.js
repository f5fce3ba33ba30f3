// ESLint for the repository root (local stack, scripts, database tests). The SPA has its own
// config in frontend/ (run by `npm run lint -w frontend`); Deno functions are checked by `deno check`,
// and here only for their one boundary: they never import the SPA.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: ['node_modules/**', 'frontend/**', '.stack/**', 'dist/**', 'scripts/local-stack/tests/deno/**', '**/*.d.ts'],
  },
  ...[js.configs.recommended, ...tseslint.configs.recommended].map((config) => ({ ...config, ignores: ['supabase/functions/**'] })),
  {
    ignores: ['supabase/functions/**'],
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // Edge Functions are bundled on their own by `supabase functions deploy`: what they share with the
    // SPA lives under supabase/functions/_shared (the SPA imports it), never the other way round
    files: ['supabase/functions/**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)frontend/', message: 'Edge Functions never import the SPA; move the shared piece to supabase/functions/_shared.' }] },
      ],
    },
  },
);
