import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_COMPANY_FILE, loadCompany } from './company.ts';

const root = path.resolve(path.dirname(DEMO_COMPANY_FILE), '..');

function companyFile(data: unknown): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'company-')), 'company.json');
  fs.writeFileSync(file, JSON.stringify(data));
  return file;
}

const demo = JSON.parse(fs.readFileSync(DEMO_COMPANY_FILE, 'utf8')) as Record<string, unknown>;

describe('company data of the legal pages (issue 33 §17)', () => {
  it('a production build refuses to run without TEAMWERK_COMPANY_FILE', () => {
    expect(() => loadCompany({ command: 'build', mode: 'production', file: undefined, root })).toThrow(/TEAMWERK_COMPANY_FILE is not set/);
  });

  it('a production build refuses the fictional demo data', () => {
    expect(() => loadCompany({ command: 'build', mode: 'production', file: DEMO_COMPANY_FILE, root })).toThrow(/fictional demo data/);
  });

  it('a production build takes a complete file; each invalid field is named', () => {
    const real = { ...demo, demo: false, name: 'Teamwerk GmbH' };
    expect(loadCompany({ command: 'build', mode: 'production', file: companyFile(real), root })).toMatchObject({ name: 'Teamwerk GmbH', demo: false });
    const broken = { ...real, vatId: '123', email: 'nope' };
    expect(() => loadCompany({ command: 'build', mode: 'production', file: companyFile(broken), root })).toThrow(/email: .*; vatId: /);
    const { street: _street, ...missing } = real;
    expect(() => loadCompany({ command: 'build', mode: 'production', file: companyFile(missing), root })).toThrow(/street/);
  });

  it('the dev server and local builds use the demo data, marked as such', () => {
    expect(loadCompany({ command: 'serve', mode: 'development', file: undefined, root })).toMatchObject({ demo: true, name: demo.name });
    expect(loadCompany({ command: 'build', mode: 'stack', file: undefined, root }).demo).toBe(true);
  });
});
