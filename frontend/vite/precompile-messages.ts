/**
 * Vite plugin: compiles the message catalogues (`src/i18n/*.json`) to ICU ASTs at build time and
 * points react-intl at the parser-less build of `@formatjs/icu-messageformat-parser`, so the
 * browser never downloads the ICU parser (react-intl's documented "precompile" setup). `{product}`
 * is filled with the product name before compiling, as `withProductName` does at run time.
 */
import { parse } from '@formatjs/icu-messageformat-parser';
import type { Plugin } from 'vite';
import { cataloguePart } from '../src/i18n/shell.ts';

/** A catalogue file, optionally with `?shell` / `?pages` / `?rest` (the parts src/lib/i18n.ts loads). */
const CATALOGUE = /[\\/]src[\\/]i18n[\\/][a-z]{2}\.json(?:\?(shell|pages|rest))?$/;

/** Which messages of a catalogue a module holds: all, or one part (src/i18n/shell.ts, issues 5 and 18). */
export type CataloguePart = 'all' | 'shell' | 'pages' | 'rest';

/**
 * Compiles one catalogue: id → AST.
 * @param source the JSON text of a flat `{ id: message }` catalogue
 * @param productName replaces `{product}` in every message
 * @param part `shell`, `pages` or `rest` keeps the messages of that part (cataloguePart in src/i18n/shell.ts), `all` every one
 * @throws SyntaxError for invalid JSON, the parser's error for invalid ICU (the build fails)
 */
export function compileCatalogue(source: string, productName: string, part: CataloguePart = 'all'): Record<string, unknown> {
  const messages = JSON.parse(source) as Record<string, string>;
  return Object.fromEntries(
    Object.entries(messages)
      .filter(([id]) => part === 'all' || cataloguePart(id) === part)
      .map(([id, text]) => [id, parse(text.replaceAll('{product}', productName))]),
  );
}

/**
 * The module for a catalogue file: `id` → compiled module code, or null when `id` is no catalogue
 * (or only a whole file while `partsOnly`). Shared by the plugin and vitest.config.ts.
 * @param partsOnly only the parts (`?shell` / `?pages` / `?rest`); a whole file stays plain JSON
 */
export function transformCatalogue(code: string, id: string, productName: string, partsOnly = false): { code: string; map: null } | null {
  const match = CATALOGUE.exec(id);
  if (!match || (partsOnly && !match[1])) return null;
  const part = (match[1] as CataloguePart | undefined) ?? 'all';
  const json = JSON.stringify(compileCatalogue(code, productName, part));
  // the whole file stays JSON (Vite's JSON plugin turns it into the module afterwards); a part
  // (`?shell` / `?pages` / `?rest`) is not seen as JSON by the bundler, so it becomes a module here
  if (part !== 'all') return { code: `export default JSON.parse(${JSON.stringify(json)});`, map: null };
  return { code: json, map: null };
}

/** Creates the plugin (build and dev). */
export function precompileMessagesPlugin(productName: string): Plugin {
  return {
    name: 'teamwerk-precompile-messages',
    enforce: 'pre',
    config() {
      return {
        resolve: {
          alias: [{ find: /^@formatjs\/icu-messageformat-parser$/, replacement: '@formatjs/icu-messageformat-parser/no-parser.js' }],
        },
      };
    },
    transform: (code, id) => transformCatalogue(code, id, productName),
  };
}
