import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import de from '../de.json';
import en from '../en.json';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === '__tests__' || name === 'i18n' ? [] : sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

const source = sourceFiles(SRC)
  .map((file) => readFileSync(file, 'utf8'))
  .join('\n');
/** Every quoted literal in the source (single, double or backtick quotes without interpolation). */
const literals = new Set([...source.matchAll(/['"`]([A-Za-z][\w-]*(?:\.[\w-]+)+)['"`]/g)].map((m) => m[1]!));
const namespaces = new Set(Object.keys(en).map((key) => key.split('.')[0]!));

describe('message catalogues (issue 5: same keys, none missing, none unused)', () => {
  it('en.json and de.json have exactly the same keys', () => {
    const enKeys = Object.keys(en).sort();
    const deKeys = Object.keys(de).sort();
    expect(enKeys.filter((k) => !deKeys.includes(k)), 'missing in de.json').toEqual([]);
    expect(deKeys.filter((k) => !enKeys.includes(k)), 'missing in en.json').toEqual([]);
  });

  it('every key is used somewhere in src', () => {
    const unused = Object.keys(en).filter((key) => !literals.has(key));
    expect(unused).toEqual([]);
  });

  it('every message id written in src exists in the catalogues', () => {
    const missing = [...literals].filter((lit) => namespaces.has(lit.split('.')[0]!) && !(lit in en));
    expect(missing).toEqual([]);
  });

  it('every message is valid ICU and both languages use the same arguments', () => {
    const args = (message: string): string[] => {
      const names = new Set<string>();
      const walk = (nodes: ReturnType<typeof parse>) => {
        for (const node of nodes) {
          if ('value' in node && typeof node.value === 'string' && node.type !== 0) names.add(node.value);
          if ('children' in node) walk(node.children);
        }
      };
      walk(parse(message));
      return [...names].sort();
    };
    for (const key of Object.keys(en)) {
      const e = en[key as keyof typeof en];
      const d = de[key as keyof typeof de];
      expect(() => parse(e), `en ${key}`).not.toThrow();
      expect(() => parse(d), `de ${key}`).not.toThrow();
      expect(args(d), key).toEqual(args(e));
    }
  });

  it('German texts address the reader as "Sie", never "du" (issue 33 §7)', () => {
    const informal = /\b(?:du|dich|dir|dein|deine|deinen|deinem|deiner|deines|kannst|musst|hast|bist|willst)\b|^(?:Gib|Wähle|Finde|Lies|Sende)\b/i;
    const du = Object.entries(de).filter(([, text]) => informal.test(text)).map(([key, text]) => `${key}: ${text}`);
    expect(du).toEqual([]);
  });

  it('texts required by the spec are exact', () => {
    expect(de['footer.cancelContracts']).toBe('Verträge hier kündigen');
    expect(en['footer.cancelContracts']).toBe('Cancel contracts here');
    expect(de['page.search.title']).toBe('Suche');
    expect(en['error.notFound']).toBe('Page Not Found');
    expect(en['error.internal']).toBe('Internal Server Error');
    expect(de['prices.vatIncluded']).toBe('inkl. MwSt.');
  });
});

describe('formatting every message', () => {
  it('formats in both languages with the product name filled in and sample values', async () => {
    const { IntlMessageFormat } = await import('intl-messageformat');
    const { withProductName } = await import('@/lib/i18n');
    const { COMPANY, companyMessageValues } = await import('@/config/company');
    const sample = { year: 2026, included: 5, extra: 2, period: 'per month', seats: 7, total: '30 €', min: 0, max: 995, date: '1 Jan 2026', link: (chunks: unknown) => chunks, title: 'Solar bikes', n: 1, count: 3, page: 2, position: 1, places: 2, number: 'TW-0000000001', deadline: '1 Jan 2026, 18:00', capacity: 10, price: '5 €', name: 'Anna', time: '18:00', amount: '15,83 €', percent: '17 %', error: 'Payment not completed', plan: 'Premium', email: 'anna@example.com', id: 'req-1', limit: 3, used: 2, when: '5 minutes ago', kind: 'Project', city: 'Köln', access: 'Everyone',
      // matching (issue 19): reasons, quota, completeness
      roles: 'Technical', skills: 'React', withSkills: 'yes', missing: 'Python', withMissing: 'yes', km: 12, radius: 50, sought: 'Health', industries: 'Health', industry: 'Health', commitment: 'Part-time', mine: 'Part-time', theirs: 'Full-time', stage: 'Idea', languages: 'German', person: 'Part-time', role: 'Technical', field: 'Skills', score: 80, remaining: 4,
      // issue 32 §2: the organisation that gives the plan
      organization: 'Solar GmbH',
      // issue 33 §7: the 404 heading names the address
      path: '/no/such/page',
      // API access (issue 15)
      // accessible names of steppers and tag remove buttons (issue 33 §13)
      label: 'Capacity', tag: 'React',
      // search: did you mean (issue 33 §2)
      suggestion: 'technology',
      header: 'Authorization: Bearer …', scope: 'jobs:read', url: 'https://example.com/functions/v1/api/v1', version: '1.0.0', docs: (chunks: unknown) => chunks,
      // the city field's position line (issue 33 §6)
      state: 'Bayern', lat: '48.14', lon: '11.58',
      // legal pages: the configured company data (issue 33 §17)
      ...companyMessageValues(COMPANY, 'none') };
    for (const [locale, catalogue] of [['en', en], ['de', de]] as const) {
      const filled = withProductName(catalogue);
      for (const [id, text] of Object.entries(filled)) {
        expect(text, id).not.toContain('{product}');
        expect(() => new IntlMessageFormat(text, locale).format(sample), `${locale} ${id}`).not.toThrow();
      }
    }
  });
});
