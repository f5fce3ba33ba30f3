import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const here = path.dirname(fileURLToPath(import.meta.url));
const features = fs
  .readdirSync(path.join(here, 'src/features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The module boundaries of the SPA (bulletproof-react): app → features → shared (components, lib,
 * config, i18n), never back. A feature imports another feature only through that feature's public
 * entry `features/<name>/index.ts`; the app also through `features/<name>/routes/index.ts` (the
 * route table). `import-x/no-cycle` forbids import cycles, also those that run through public entries.
 */
const boundaryZones = [
  {
    target: ['./src/components', './src/lib', './src/config', './src/i18n'],
    from: ['./src/app', './src/features'],
    message: 'Shared code (components, lib, config, i18n) imports neither features nor the app; move the piece down instead.',
  },
  { target: './src/features', from: './src/app', message: 'Features do not import the app.' },
  {
    target: './src/app',
    from: './src/features',
    except: features.flatMap((name) => [`./${name}/index.ts`, `./${name}/routes/index.ts`]),
    message: 'The app imports a feature through its public entry (index.ts) or its route table (routes/index.ts).',
  },
  ...features.map((name) => ({
    target: `./src/features/${name}`,
    from: './src/features',
    except: [`./${name}`, ...features.filter((other) => other !== name).map((other) => `./${other}/index.ts`)],
    message: 'A feature imports another feature only through its public entry `@/features/<name>` (index.ts), or the shared piece moves down.',
  })),
];

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'test-results', 'playwright-report', 'src/lib/database.types.ts'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2022, globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // parse TypeScript modules when following imports (the plugin's TypeScript preset), resolve `@/` by tsconfig
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: path.join(here, 'tsconfig.json') })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: here, zones: boundaryZones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // tests check the wiring across layers (e.g. the shell catalogue against the route table)
    files: ['src/**/__tests__/**', 'src/**/*.test.{ts,tsx}'],
    rules: { 'import-x/no-restricted-paths': 'off' },
  },
);
