import type { Company } from './company-schema';

export type { Company } from './company-schema';

/** See company-schema.ts: the data comes from configuration at build time (frontend/vite/company.ts). */
declare const __TEAMWERK_COMPANY__: Company;

/** The company data the SPA was built with (frontend/vite/company.ts). */
export const COMPANY: Company = __TEAMWERK_COMPANY__;

/**
 * The company data as message values of the legal pages (`{companyName}`, `{companyStreet}`, …).
 * The data protection officer reads "none appointed" in the page's language when not configured.
 */
export function companyMessageValues(company: Company, noDpo: string): Record<string, string> {
  return {
    companyName: company.name,
    companyStreet: company.street,
    companyPostcodeCity: company.postcodeCity,
    companyDirectors: company.managingDirectors,
    companyPhone: company.phone,
    companyEmail: company.email,
    companyRegisterCourt: company.registerCourt,
    companyRegisterNumber: company.registerNumber,
    companyVatId: company.vatId,
    companyEditorial: company.editorial,
    companyDpo: company.dataProtectionOfficer ?? noDpo,
    companySupervisoryAuthority: company.supervisoryAuthority,
    hostingRegion: company.hostingRegion,
  };
}
