import { z } from 'zod';

/**
 * The provider's company data the legal pages show (Impressum §5 DDG, provider identification,
 * privacy controller, terms, withdrawal; issue 33 §17). It comes from configuration: a JSON file
 * named by TEAMWERK_COMPANY_FILE when the SPA is built (frontend/vite/company.ts); a production
 * build refuses to run without it. Local builds (`npm start`, the browser tests, `--mode stack`)
 * use the fictional `frontend/company.demo.json`, marked `demo`, and the pages then say so.
 */
export const companySchema = z.object({
  /** True only for the fictional demo data: the legal pages show a notice. */
  demo: z.boolean().default(false),
  /** Company name with legal form, e.g. "Teamwerk GmbH". */
  name: z.string().trim().min(2),
  street: z.string().trim().min(2),
  postcodeCity: z.string().trim().regex(/^\d{5} \S.*$/, 'must be "<5-digit postcode> <city>"'),
  managingDirectors: z.string().trim().min(2),
  phone: z.string().trim().regex(/^\+?[0-9 ()/-]{6,}$/, 'must be a phone number'),
  email: z.string().trim().email(),
  registerCourt: z.string().trim().min(2),
  registerNumber: z.string().trim().regex(/^HR[AB] \d+/, 'must start with HRA or HRB and the number'),
  vatId: z.string().trim().regex(/^DE\d{9}$/, 'must be a German VAT id (DE + 9 digits)'),
  /** Person responsible for editorial content (§18 (2) MStV) with address. */
  editorial: z.string().trim().min(2),
  /** Data protection officer and contact, when one is appointed. */
  dataProtectionOfficer: z.string().trim().min(2).optional(),
  /** The data protection supervisory authority responsible for the company, with address. */
  supervisoryAuthority: z.string().trim().min(2),
  /** Where the Supabase project (database, storage, functions) runs, e.g. "EU (Frankfurt)". */
  hostingRegion: z.string().trim().min(2),
});

/** Company data as the SPA uses it. */
export type Company = z.infer<typeof companySchema>;
