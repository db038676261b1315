/**
 * Origins. The API speaks an enumeration (`mfn`, `china`, `col2`, and the partner codes); people
 * also write ISO codes and English names (`CN`, `China`, `Korea`, `VN`, `Vietnam`). Every input
 * resolves to one enumeration value, or is an error: an unknown string is never a silent default.
 */
import { invalid } from './errors.js';
import { COLUMN2_COUNTRIES, ORIGIN_PROGRAMS, ORIGINS, type Origin } from './policy.js';

export { ORIGINS, type Origin };

export interface Country {
  iso2: string;
  iso3: string;
  name: string;
}

export interface ResolvedOrigin {
  origin: Origin;
  /** The country the caller named, when it was a country rather than an enumeration value. */
  country: Country | null;
}

/** Names people use that differ from the ISO short names. */
const ALIASES: Record<string, string> = {
  korea: 'KR', 'republic of korea': 'KR', 'korea, republic of': 'KR', 'korea (south)': 'KR',
  'north korea': 'KP', "democratic people's republic of korea": 'KP',
  prc: 'CN', "people's republic of china": 'CN', 'mainland china': 'CN',
  'viet nam': 'VN', usa: 'US', 'united states of america': 'US', uk: 'GB', 'great britain': 'GB', britain: 'GB',
  'russian federation': 'RU', 'czech republic': 'CZ', turkiye: 'TR', 'türkiye': 'TR', holland: 'NL',
  'republic of china': 'TW', 'hong kong sar': 'HK', 'macau': 'MO', 'ivory coast': 'CI', burma: 'MM',
};

const ENUM = new Set<string>(ORIGINS);
const PARTNERS = new Set(Object.keys(ORIGIN_PROGRAMS));

function normalise(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[’`]/g, "'")
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** Which enumeration value a country's goods take. */
export function originOfCountry(iso2: string): Origin {
  if (iso2 === 'CN') return 'china';
  if (COLUMN2_COUNTRIES.has(iso2)) return 'col2';
  const code = iso2.toLowerCase();
  return PARTNERS.has(code) ? (code as Origin) : 'mfn';
}

export class Origins {
  private readonly byKey = new Map<string, Country>();
  private readonly cache = new Map<string, ResolvedOrigin>();

  constructor(countries: readonly Country[]) {
    const byIso2 = new Map<string, Country>();
    for (const c of countries) {
      byIso2.set(c.iso2, c);
      this.byKey.set(c.iso2.toLowerCase(), c);
      this.byKey.set(c.iso3.toLowerCase(), c);
      this.byKey.set(normalise(c.name), c);
    }
    for (const [alias, iso2] of Object.entries(ALIASES)) {
      const c = byIso2.get(iso2);
      if (c) this.byKey.set(normalise(alias), c);
    }
  }

  /** Resolves an `origin` parameter; undefined or empty means `mfn`. */
  resolve(input: unknown, parameter = 'origin'): ResolvedOrigin {
    if (input === undefined || input === null || input === '') return MFN;
    if (typeof input !== 'string') throw invalid(parameter, `${parameter} must be a string such as mfn, china, kr, CN or Vietnam`);
    const hit = this.cache.get(input);
    if (hit) return hit;
    const key = normalise(input);
    let resolved: ResolvedOrigin;
    if (ENUM.has(key)) resolved = { origin: key as Origin, country: null };
    else {
      const country = this.byKey.get(key);
      if (!country)
        throw invalid(parameter, `${parameter} ${JSON.stringify(input.slice(0, 40))} is not a known origin: use one of ${ORIGINS.join(', ')}, an ISO country code or an English country name`);
      resolved = { origin: originOfCountry(country.iso2), country };
    }
    if (this.cache.size < 10_000) this.cache.set(input, resolved);
    return resolved;
  }
}

/** ISO2 of the origin country: the one named, else the country of a partner enumeration value (`mx` → MX, `china` → CN); null for `mfn` and `col2`. */
export function countryOf(o: ResolvedOrigin): string | null {
  if (o.country) return o.country.iso2;
  return ENUM_COUNTRIES.get(o.origin) ?? null;
}

/** The country of each enumeration value that names one (`mx` → MX, `china` → CN). */
const ENUM_COUNTRIES = new Map<Origin, string>([['china', 'CN'], ...[...PARTNERS].map((p): [Origin, string] => [p as Origin, p.toUpperCase()])]);

const MFN: ResolvedOrigin = { origin: 'mfn', country: null };
