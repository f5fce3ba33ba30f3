/**
 * Vite plugin: compiles the message catalogues (`src/i18n/*.json`) to ICU ASTs at build time and
 * points react-intl at the parser-less build of `@formatjs/icu-messageformat-parser`, so the
 * browser never downloads the ICU parser (react-intl's documented "precompile" setup). `{product}`
 * is filled with the product name before compiling, as `withProductName` does at run time.
 */
import { parse } from '@formatjs/icu-messageformat-parser';
import type { Plugin } from 'vite';

const CATALOGUE = /[\\/]src[\\/]i18n[\\/][a-z]{2}\.json$/;

/**
 * Compiles one catalogue: id → AST.
 * @param source the JSON text of a flat `{ id: message }` catalogue
 * @param productName replaces `{product}` in every message
 * @throws SyntaxError for invalid JSON, the parser's error for invalid ICU (the build fails)
 */
export function compileCatalogue(source: string, productName: string): Record<string, unknown> {
  const messages = JSON.parse(source) as Record<string, string>;
  return Object.fromEntries(
    Object.entries(messages).map(([id, text]) => [id, parse(text.replaceAll('{product}', productName))]),
  );
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
    transform(code, id) {
      if (!CATALOGUE.test(id)) return null;
      // stays JSON: Vite's JSON plugin turns it into the module afterwards
      return { code: JSON.stringify(compileCatalogue(code, productName)), map: null };
    },
  };
}
