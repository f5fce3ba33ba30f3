import fs from 'node:fs';
import path from 'node:path';
import { companySchema, type Company } from '../src/config/company-schema.ts';

/** The fictional company data of local builds (`npm start`, browser tests, `vite build --mode stack`, the dev server). */
export const DEMO_COMPANY_FILE = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'company.demo.json');

/**
 * The company data a build embeds (issue 33 §17): the JSON file TEAMWERK_COMPANY_FILE names
 * (relative to the repository root or absolute), validated by `companySchema`. Without it, the
 * dev server and local builds (`mode === 'stack'`) use the demo file; a production build refuses.
 * A production build also refuses the demo file (`demo: true`).
 * Errors: throws a message naming the missing setting or each invalid field.
 */
export function loadCompany(opts: { command: 'build' | 'serve'; mode: string; file: string | undefined; root: string }): Company {
  const local = opts.command === 'serve' || opts.mode === 'stack';
  if (!opts.file && !local) {
    throw new Error(
      'TEAMWERK_COMPANY_FILE is not set: a production build needs the company data of the Impressum and the legal pages ' +
        '(a JSON file like frontend/company.demo.json with the real data and without "demo"). Build for the local stack with `vite build --mode stack`.',
    );
  }
  const file = opts.file ? path.resolve(opts.root, opts.file) : DEMO_COMPANY_FILE;
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`company data ${file} is not readable JSON: ${(err as Error).message}`);
  }
  const parsed = companySchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`company data ${file} is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  if (parsed.data.demo && !local) {
    throw new Error(`company data ${file} is the fictional demo data: a production build needs the real company data`);
  }
  return parsed.data;
}
