import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileCatalogue } from './precompile-messages';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/i18n');

describe('compileCatalogue', () => {
  it('compiles both catalogues to ASTs with the product name filled in', () => {
    for (const file of ['en.json', 'de.json']) {
      const compiled = compileCatalogue(readFileSync(path.join(dir, file), 'utf8'), 'Teamwerk');
      expect(Object.keys(compiled).length).toBeGreaterThan(300);
      expect(JSON.stringify(compiled)).not.toContain('{product}');
      expect(compiled['page.about.title']).toEqual([{ type: 0, value: file === 'en.json' ? 'About Teamwerk' : 'Über Teamwerk' }]);
    }
  });

  it('fails the build on an invalid message', () => {
    expect(() => compileCatalogue('{"x": "Hello {name"}', 'Teamwerk')).toThrow();
  });
});

describe('compileCatalogue parts (issue 5)', () => {
  it('shell, pages and rest split every catalogue without overlap or loss', () => {
    for (const file of ['en.json', 'de.json']) {
      const source = readFileSync(path.join(dir, file), 'utf8');
      const all = compileCatalogue(source, 'Teamwerk');
      const shell = compileCatalogue(source, 'Teamwerk', 'shell');
      const pages = compileCatalogue(source, 'Teamwerk', 'pages');
      const rest = compileCatalogue(source, 'Teamwerk', 'rest');
      expect(Object.keys(shell)).toContain('nav.login');
      expect(Object.keys(shell)).not.toContain('privacy.title');
      expect(Object.keys(pages)).toContain('prices.title');
      expect(Object.keys(pages)).not.toContain('privacy.title');
      expect(Object.keys(rest)).toContain('privacy.title');
      expect(Object.keys(pages).filter((id) => id in shell)).toEqual([]);
      expect(Object.keys(rest).filter((id) => id in shell || id in pages)).toEqual([]);
      expect({ ...shell, ...pages, ...rest }).toEqual(all);
    }
  });
});
