/**
 * Units of quantity for specific duties. A rate is written per a schedule unit (`¢/kg`, `$/t`,
 * `¢/doz.`); the importer states a quantity in any unit of the same dimension and it is converted
 * exactly. Units of different dimensions (kg against liters) are never converted: that would need
 * a density the schedule does not give.
 */
import { invalid } from './errors.js';

export type Dimension = 'mass' | 'volume' | 'proof_volume' | 'count' | 'pairs' | 'area' | 'length' | 'jewels' | 'articles' | 'packs';

export interface Unit {
  /** Canonical name, as reported back to the caller. */
  name: string;
  dimension: Dimension;
  /** Size of one unit in the dimension's base unit (kg, liter, each, m², m), as an exact decimal. */
  factor: string;
}

/** A Map, not an object: a caller's `constructor` or `__proto__` must find nothing. */
const UNITS = new Map<string, Unit>();
function unit(name: string, dimension: Dimension, factor: string, ...aliases: string[]): Unit {
  const u = { name, dimension, factor };
  for (const a of [name, ...aliases]) UNITS.set(a, u);
  return u;
}

export const KG = unit('kg', 'mass', '1', 'kgs', 'kilogram', 'kilograms', 'clean kg');
unit('g', 'mass', '0.001', 'gram', 'grams', 'gr');
unit('lb', 'mass', '0.45359237', 'lbs', 'pound', 'pounds');
unit('oz', 'mass', '0.028349523125', 'ounce', 'ounces');
unit('t', 'mass', '1000', 'ton', 'tons', 'tonne', 'tonnes', 'metric ton', 'mt');
unit('liter', 'volume', '1', 'l', 'liters', 'litre', 'litres', 'lt');
unit('ml', 'volume', '0.001', 'milliliter', 'milliliters');
unit('gal', 'volume', '3.785411784', 'gallon', 'gallons');
unit('m3', 'volume', '1000', 'm³', 'cubic meter', 'cubic meters', 'cbm');
unit('bbl', 'volume', '158.987294928', 'barrel', 'barrels');
unit('pf.liter', 'proof_volume', '1', 'pf. liter', 'pf liter', 'proof liter', 'proof liters');
unit('each', 'count', '1', 'no', 'no.', 'pcs', 'pc', 'piece', 'pieces', 'unit', 'units', 'ea', 'head', 'number');
unit('doz', 'count', '12', 'doz.', 'dozen', 'dz');
unit('gross', 'count', '144');
unit('thousand', 'count', '1000', '1000', 'thousands');
unit('pairs', 'pairs', '1', 'pair', 'prs', 'prs.', 'pr', 'pr.');
unit('m2', 'area', '1', 'm²', 'square meter', 'square meters', 'sqm');
unit('m', 'length', '1', 'meter', 'meters', 'lin. m', 'linear meter', 'linear meters');
unit('jewel', 'jewels', '1', 'jewels');
unit('article', 'articles', '1', 'articles');
// Playing cards are dutiable per pack (9504.40.00, column 2): a pack is not a count of cards.
unit('pack', 'packs', '1', 'packs');

/** The unit a rate or a caller names, or undefined. */
export function findUnit(text: string): Unit | undefined {
  return UNITS.get(text.trim().toLowerCase().replace(/\s+/g, ' '));
}

/** The caller's `unit` parameter, validated. */
export function parseUnit(input: unknown, parameter = 'unit'): Unit {
  const u = typeof input === 'string' ? findUnit(input) : undefined;
  if (!u)
    throw invalid(parameter, `${parameter} must be a unit of quantity such as kg, g, lb, t, liter, gal, m3, each, doz, gross, pairs, m2, m; got ${JSON.stringify(String(input).slice(0, 30))}`);
  return u;
}
