/**
 * The chapter 99 tables (data/ch99: rates, product lists, country groups, stacking rules; see
 * data/SOURCES.md), read as plain records for the engine. Folder: env CH99_DATA.
 */
import { join, resolve } from 'node:path';
import type { Chapter99Tables, TableName } from '../../shared/index.js';
import { readCsv } from './countries.js';
import { dataDir } from './paths.js';

export function ch99Path(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.CH99_DATA ?? join(dataDir, 'ch99'));
}

const FILES: Record<TableName, string> = {
  programRates: 'program_rates.csv',
  countryGroups: 'country_groups.csv',
  stackingRules: 'stacking_rules.csv',
  headingsPostRev10: 'ch99_headings_post_rev10.csv',
  metalsAnnex: 's232_metals_annex_products.csv',
  metalsPreAnnex: 's232_metals_pre_annex_products.csv',
  vehicles: 's232_vehicle_products.csv',
  woodSemiconductors: 's232_wood_semiconductor_products.csv',
  pharma: 's232_pharma_products.csv',
  ieepaReciprocalExempt: 'ieepa_reciprocal_exempt_products.csv',
  ieepaDealExemptions: 'ieepa_deal_country_exemptions.csv',
  ieepaFentanylCarveouts: 'ieepa_fentanyl_carveouts.csv',
  s122Exempt: 's122_exempt_products.csv',
  ieepaBrazilExempt: 'ieepa_brazil_exempt_products.csv',
  informationalMaterials: 'ieepa_informational_materials.csv',
  s301BrazilAnnex: 's301_brazil_annex_proposed.csv',
  s301ForcedLaborAnnex: 's301_forced_labor_annex_a_proposed.csv',
};

/** Each table's file in the folder. */
export function ch99Files(dir = ch99Path()): [TableName, string][] {
  return Object.entries(FILES).map(([k, f]) => [k as TableName, join(dir, f)]);
}

/** Every table; a missing or unreadable file stops the start with its path. */
export function readChapter99(dir = ch99Path()): Chapter99Tables {
  return Object.fromEntries(ch99Files(dir).map(([k, path]) => [k, readCsv(path)])) as unknown as Chapter99Tables;
}
