/**
 * The units of quantity invoices write (UN/ECE Recommendation 20 codes such as KGM, C62, MTK, and
 * the shippers' own: PCS, CTN, SETS, YDS) in the one table both add-ins and their functions read:
 * each maps to a unit the API takes, with an exact factor where the invoice counts in another unit
 * of the same measure (yards to meters). The unit matters only to a rate that needs a quantity: a
 * unit not in the table is never sent, and is an error only on such a line.
 */
import { findUnit } from '../shared/units.js';

/** The API's unit, and how many of it one invoice unit is (an exact decimal); absent: 1. */
interface InvoiceUnit {
  unit: string;
  factor?: string;
}

const TABLE: readonly [codes: string, unit: string, factor?: string][] = [
  // Counts of articles. Cartons, boxes, packs and rolls are counted as the articles the invoice ships.
  ['PCS PC PCE EA EACH NOS NO NMB C62 UNIT UNITS PIECE PIECES SET SETS CTN CTNS BOX BOXES PK PKG PKGS PACK ROLL ROLLS RLS BAG BAGS', 'each'],
  ['PR PRS PAIR PAIRS NPR', 'pairs'],
  ['DOZ DZN DZ DOZEN', 'doz'],
  ['GRS GRO GROSS', 'gross'],
  ['KGM KGS KG KILO KILOS', 'kg'],
  ['GRM GR G GRAM GRAMS', 'g'],
  ['LBR LBS LB', 'lb'],
  ['ONZ OZ', 'oz'],
  ['TNE MT TON TONS', 't'],
  ['LTR LTRS L LT LITER LITRE LITERS LITRES', 'liter'],
  ['MLT ML', 'ml'],
  ['GLL GAL GALLON GALLONS', 'gal'],
  ['MTQ CBM M3', 'm3'],
  ['MTR MTRS M METER METRE METERS METRES', 'm'],
  ['MTK SQM M2', 'm2'],
  // Inch-pound measures, converted exactly (1 yd = 0.9144 m, 1 ft = 0.3048 m).
  ['YDS YD YRD YARD YARDS', 'm', '0.9144'],
  ['FOT FT FEET', 'm', '0.3048'],
  ['SQFT FTK SF', 'm2', '0.09290304'],
  ['SQYD YDK SY', 'm2', '0.83612736'],
];

const INVOICE_UNITS: ReadonlyMap<string, InvoiceUnit> = new Map(
  TABLE.flatMap(([codes, unit, factor]) => codes.split(' ').map((code) => [code, factor ? { unit, factor } : { unit }] as const)),
);

const keyOf = (text: string): string => text.trim().toUpperCase().replace(/\.$/, '');

/** The invoice unit's entry (else the API's own name of a unit: kg, liter, doz., pf. liter...), or undefined for a unit neither knows. */
export function invoiceUnit(text: string): InvoiceUnit | undefined {
  const known = INVOICE_UNITS.get(keyOf(text));
  if (known) return known;
  const api = findUnit(text);
  return api ? { unit: api.name } : undefined;
}

/** `units × 10^-scale × factor`, exactly, as a number (factors have at most 8 decimals). */
function times(qty: number, factor: string): number {
  const [int, frac = ''] = factor.split('.');
  const scale = frac.length;
  const q = String(qty);
  if (q.includes('e')) return qty * Number(factor);
  const [qi, qf = ''] = q.split('.');
  const digits = BigInt(qi + qf) * BigInt(int + frac);
  const s = digits.toString().padStart(scale + qf.length + 1, '0');
  const cut = s.length - scale - qf.length;
  return Number(`${s.slice(0, cut)}.${s.slice(cut)}`);
}

/** What a line or a function sends for its quantity: the API's unit and the quantity in it, or the unit it does not know. */
export interface SentQuantity {
  qty?: unknown;
  unit?: string;
  /** The invoice's unit as written, when the table does not know it: nothing is sent, and a rate that needs a quantity says so. */
  unknownUnit?: string;
  /** The invoice's unit as written (CTN, DZ, YDS) when the API's unit has another name (each, doz, m): the messages name it. */
  word?: string;
}

/**
 * A quantity and its invoice unit as the API takes them. A blank unit leaves the quantity in the
 * rate's own unit (the API's default); an unknown unit sends neither, as the unit of an ad valorem
 * line does not matter.
 */
export function sentQuantity(qty: unknown, unit: unknown): SentQuantity {
  const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
  if (blank(unit)) return blank(qty) ? {} : { qty };
  const text = String(unit).trim();
  const known = invoiceUnit(text);
  if (!known) return { unknownUnit: text };
  if (blank(qty)) return {};
  const n = typeof qty === 'number' ? qty : Number(String(qty).trim());
  const word = text.toLowerCase() === known.unit ? {} : { word: text.slice(0, 20) };
  // A quantity that is no number goes as written, for the API to refuse by name.
  return { qty: known.factor && Number.isFinite(n) ? times(n, known.factor) : qty, unit: known.unit, ...word };
}

/**
 * An API message in the invoice's own unit: the API names the unit it was sent (`a quantity in each
 * cannot be converted`), which the person never wrote when the invoice said CTN.
 */
export function inInvoiceUnit(text: string, sent: Pick<SentQuantity, 'unit' | 'word'>): string {
  return sent.word && sent.unit ? text.replaceAll(`a quantity in ${sent.unit} `, `a quantity in ${sent.word} `) : text;
}

/** The message of a line whose rate needs a quantity in a unit the invoice gave as one the table does not know. */
export function unknownUnitText(unit: string, rate: string | null): string {
  return `Unit "${unit.slice(0, 20)}" is not a unit of quantity this add-in knows (such as PCS, PR, DOZ, KGM, LTR, MTR, MTK, YDS), and the rate ${rate ? `"${rate}"` : ''} needs the quantity: write the Qty in the rate's unit`;
}
