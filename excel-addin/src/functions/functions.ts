/**
 * The TARIFF.* custom functions. Each is a thin view of the API's DutyResult: every duty query goes
 * through the shared batching client, so a sheet of 2,000 formulas costs two requests, and every
 * figure comes from the server. functions.json is generated from the JSDoc below by
 * custom-functions-metadata at build time; the build also generates the CustomFunctions.associate
 * calls from it.
 */
/// <reference path="../types/custom-functions.d.ts" />
import type { DutyResult } from '../../../shared/order.js';
import { isApiError, landed } from '../client/index.js';
import { BLANK_HTS, BLANK_VALUE, dateArgument, isBlank, readCode } from '../../../spreadsheet/order-sheet.js';
import { sentQuantity, unknownUnitText, type SentQuantity } from '../../../spreadsheet/invoice-units.js';
import { missingDutyText, RESULT_COLUMNS, resultCells } from '../../../spreadsheet/order-output.js';
import { nothingFound, searchCells, SPILLED_LINES } from '../../../spreadsheet/search-cells.js';

export { RESULT_COLUMNS };

type Cell = unknown;

/** Excel's messages for custom function errors are short: keep them readable. */
const MAX_MESSAGE = 255;

function cellError(code: CustomFunctions.ErrorCode, message: string): CustomFunctions.Error {
  return new CustomFunctions.Error(code, message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message);
}

/** An API or transport error as the cell shows it: bad input is #VALUE!, the rest #N/A. */
function toCellError(e: unknown): CustomFunctions.Error {
  if (!isApiError(e)) return cellError(CustomFunctions.ErrorCode.notAvailable, `landed: ${e instanceof Error ? e.message : String(e)}`);
  return cellError(e.code === 'invalid_parameter' ? CustomFunctions.ErrorCode.invalidValue : CustomFunctions.ErrorCode.notAvailable, e.message);
}

/** A line's answer, with the quantity as sent (the unit the invoice-unit table did not know, the invoice's own unit word). */
type Answer = DutyResult & { sent: SentQuantity };

async function query(hts: Cell, value: Cell, origin?: Cell, s301?: Cell, ocean?: Cell, qty?: Cell, unit?: Cell, date?: Cell, claim?: Cell): Promise<Answer> {
  const sent = sentQuantity(qty, unit);
  // A code typed as a number (6109.1) is read as the order panes and Sheets read it (spreadsheet/order-sheet.ts readCode); a blank one is named.
  if (isBlank(hts)) throw cellError(CustomFunctions.ErrorCode.invalidValue, BLANK_HTS);
  if (isBlank(value)) throw cellError(CustomFunctions.ErrorCode.invalidValue, BLANK_VALUE);
  try {
    const r = await landed().duties.duty({ hts: readCode(hts), value, origin, s301, ocean, qty: sent.qty, unit: sent.unit, date: dateArgument(date), claim });
    return { ...r, sent };
  } catch (e) {
    throw toCellError(e);
  }
}

/** The duty, or #N/A saying which rate applies and that it needs a quantity (or why it has no amount); #VALUE! for a unit not known. */
function computedDuty(r: Answer): number {
  if (r.duty !== null) return r.duty;
  if (r.sent.unknownUnit && r.specific_rate) throw cellError(CustomFunctions.ErrorCode.invalidValue, `${r.hts}: ${unknownUnitText(r.sent.unknownUnit, r.duty_rate)}`);
  throw cellError(CustomFunctions.ErrorCode.notAvailable, missingDutyText(r, 'TARIFF.DUTY', r.sent));
}

/**
 * Import duty on one line, in U.S. dollars (ordinary customs duty; Section 301 and fees are separate).
 * @customfunction DUTY
 * @param hts Tariff code (HTS), 8 or 10 digits, e.g. "6109.10.00".
 * @param value Customs value in U.S. dollars.
 * @param [origin] Country of origin: mfn (default), china, kr, an ISO code such as CN or VN, or a country name.
 * @param [s301] Section 301 rate for goods of China: 25, 7.5, none, or auto (default: from the schedule).
 * @param [ocean] TRUE when the goods arrive by vessel (harbor maintenance fee).
 * @param [qty] Quantity, for specific or compound rates (e.g. 100).
 * @param [unit] Unit of the quantity (e.g. kg, liter, doz); default: the unit of the rate.
 * @param [date] Entry date, a date cell or YYYY-MM-DD (default: today): the chapter 99 layers and fees in force that day.
 * @param [claim] Preference claimed: auto (default), none, usmca, korus, cafta-dr, or a program symbol.
 * @returns The duty in U.S. dollars.
 */
export async function duty(hts: unknown, value: unknown, origin?: unknown, s301?: unknown, ocean?: unknown, qty?: unknown, unit?: unknown, date?: unknown, claim?: unknown): Promise<number> {
  return computedDuty(await query(hts, value, origin, s301, ocean, qty, unit, date, claim));
}

/**
 * Section 301 duty, in U.S. dollars: every Section 301 action (China's lists, the forced-labor action of note 52, Brazil's).
 * @customfunction SECTION301
 * @param hts Tariff code (HTS), 8 or 10 digits.
 * @param value Customs value in U.S. dollars.
 * @param [origin] Country of origin: mfn (default), china, an ISO code or a country name.
 * @param [s301] China's Section 301 rate: 25, 7.5, none, or auto (default: from the schedule's chapter 99 references).
 * @param [ocean] TRUE when the goods arrive by vessel.
 * @param [qty] Quantity, for specific or compound rates.
 * @param [unit] Unit of the quantity.
 * @param [date] Entry date, a date cell or YYYY-MM-DD (default: today): the chapter 99 layers and fees in force that day.
 * @param [claim] Preference claimed: auto (default), none, usmca, korus, cafta-dr, or a program symbol.
 * @returns The Section 301 duty in U.S. dollars.
 */
export async function section301(hts: unknown, value: unknown, origin?: unknown, s301?: unknown, ocean?: unknown, qty?: unknown, unit?: unknown, date?: unknown, claim?: unknown): Promise<number> {
  return (await query(hts, value, origin, s301, ocean, qty, unit, date, claim)).section_301;
}

/**
 * Section 232 duty (steel, aluminum, copper, lumber, vehicles and their parts...), in U.S. dollars: the sum of the line's Section 232 layers.
 * @customfunction S232
 * @param hts Tariff code (HTS), 8 or 10 digits.
 * @param value Customs value in U.S. dollars.
 * @param [origin] Country of origin.
 * @param [s301] Section 301 setting (25, 7.5, none, auto).
 * @param [ocean] TRUE when the goods arrive by vessel.
 * @param [qty] Quantity, for specific or compound rates.
 * @param [unit] Unit of the quantity.
 * @param [date] Entry date, a date cell or YYYY-MM-DD (default: today): the chapter 99 layers and fees in force that day.
 * @param [claim] Preference claimed: auto (default), none, usmca, korus, cafta-dr, or a program symbol.
 * @returns The Section 232 duty in U.S. dollars.
 */
export async function s232(hts: unknown, value: unknown, origin?: unknown, s301?: unknown, ocean?: unknown, qty?: unknown, unit?: unknown, date?: unknown, claim?: unknown): Promise<number> {
  return (await query(hts, value, origin, s301, ocean, qty, unit, date, claim)).section_232;
}

/**
 * All chapter 99 duty, in U.S. dollars: Section 232, Section 301, IEEPA, Section 122 and every other additional duty of the line.
 * @customfunction ADDITIONAL
 * @param hts Tariff code (HTS), 8 or 10 digits.
 * @param value Customs value in U.S. dollars.
 * @param [origin] Country of origin.
 * @param [s301] Section 301 setting (25, 7.5, none, auto).
 * @param [ocean] TRUE when the goods arrive by vessel.
 * @param [qty] Quantity, for specific or compound rates.
 * @param [unit] Unit of the quantity.
 * @param [date] Entry date, a date cell or YYYY-MM-DD (default: today): the chapter 99 layers and fees in force that day.
 * @param [claim] Preference claimed: auto (default), none, usmca, korus, cafta-dr, or a program symbol.
 * @returns The additional duty in U.S. dollars.
 */
export async function additional(hts: unknown, value: unknown, origin?: unknown, s301?: unknown, ocean?: unknown, qty?: unknown, unit?: unknown, date?: unknown, claim?: unknown): Promise<number> {
  return (await query(hts, value, origin, s301, ocean, qty, unit, date, claim)).additional_duty;
}

/**
 * Merchandise processing fee for a one-line entry, in U.S. dollars (minimum and maximum applied; 0 for FTA origins exempt from it).
 * @customfunction MPF
 * @param hts Tariff code (HTS), 8 or 10 digits.
 * @param value Customs value in U.S. dollars.
 * @param [origin] Country of origin: mfn (default), china, kr, an ISO code or a country name.
 * @param [s301] Section 301 rate: 25, 7.5, none, or auto.
 * @param [ocean] TRUE when the goods arrive by vessel.
 * @param [qty] Quantity, for specific or compound rates.
 * @param [unit] Unit of the quantity.
 * @param [date] Entry date, a date cell or YYYY-MM-DD (default: today): the chapter 99 layers and fees in force that day.
 * @param [claim] Preference claimed: auto (default), none, usmca, korus, cafta-dr, or a program symbol.
 * @returns The MPF in U.S. dollars.
 */
export async function mpf(hts: unknown, value: unknown, origin?: unknown, s301?: unknown, ocean?: unknown, qty?: unknown, unit?: unknown, date?: unknown, claim?: unknown): Promise<number> {
  return (await query(hts, value, origin, s301, ocean, qty, unit, date, claim)).mpf;
}

/**
 * Harbor maintenance fee, in U.S. dollars (only when ocean is TRUE).
 * @customfunction HMF
 * @param hts Tariff code (HTS), 8 or 10 digits.
 * @param value Customs value in U.S. dollars.
 * @param [origin] Country of origin: mfn (default), china, kr, an ISO code or a country name.
 * @param [s301] Section 301 rate: 25, 7.5, none, or auto.
 * @param [ocean] TRUE when the goods arrive by vessel; without it the fee is 0.
 * @param [qty] Quantity, for specific or compound rates.
 * @param [unit] Unit of the quantity.
 * @param [date] Entry date, a date cell or YYYY-MM-DD (default: today): the chapter 99 layers and fees in force that day.
 * @param [claim] Preference claimed: auto (default), none, usmca, korus, cafta-dr, or a program symbol.
 * @returns The HMF in U.S. dollars.
 */
export async function hmf(hts: unknown, value: unknown, origin?: unknown, s301?: unknown, ocean?: unknown, qty?: unknown, unit?: unknown, date?: unknown, claim?: unknown): Promise<number> {
  return (await query(hts, value, origin, s301, ocean, qty, unit, date, claim)).hmf;
}

/**
 * Total duties and fees of the line entered on its own, in U.S. dollars: duty + every chapter 99 duty (Section 232, 301, IEEPA...) + MPF (0.3464% within the entry's minimum and maximum, this line being the whole entry) + HMF (vessel only). An order's fees are shared across its lines: cost it from the pane.
 * @customfunction FEES
 * @param hts Tariff code (HTS), 8 or 10 digits.
 * @param value Customs value in U.S. dollars.
 * @param [origin] Country of origin: mfn (default), china, kr, an ISO code or a country name.
 * @param [s301] Section 301 rate: 25, 7.5, none, or auto.
 * @param [ocean] TRUE when the goods arrive by vessel.
 * @param [qty] Quantity, for specific or compound rates.
 * @param [unit] Unit of the quantity.
 * @param [date] Entry date, a date cell or YYYY-MM-DD (default: today): the chapter 99 layers and fees in force that day.
 * @param [claim] Preference claimed: auto (default), none, usmca, korus, cafta-dr, or a program symbol.
 * @returns Total duties and fees in U.S. dollars.
 */
export async function fees(hts: unknown, value: unknown, origin?: unknown, s301?: unknown, ocean?: unknown, qty?: unknown, unit?: unknown, date?: unknown, claim?: unknown): Promise<number> {
  const r = await query(hts, value, origin, s301, ocean, qty, unit, date, claim);
  computedDuty(r);
  return r.total_duties_fees;
}

/**
 * Landed cost: customs value plus all duties and fees, in U.S. dollars.
 * @customfunction LANDED
 * @param hts Tariff code (HTS), 8 or 10 digits.
 * @param value Customs value in U.S. dollars.
 * @param [origin] Country of origin: mfn (default), china, kr, an ISO code or a country name.
 * @param [s301] Section 301 rate: 25, 7.5, none, or auto.
 * @param [ocean] TRUE when the goods arrive by vessel.
 * @param [qty] Quantity, for specific or compound rates.
 * @param [unit] Unit of the quantity.
 * @param [date] Entry date, a date cell or YYYY-MM-DD (default: today): the chapter 99 layers and fees in force that day.
 * @param [claim] Preference claimed: auto (default), none, usmca, korus, cafta-dr, or a program symbol.
 * @returns The landed cost in U.S. dollars.
 */
export async function landedCost(hts: unknown, value: unknown, origin?: unknown, s301?: unknown, ocean?: unknown, qty?: unknown, unit?: unknown, date?: unknown, claim?: unknown): Promise<number> {
  const r = await query(hts, value, origin, s301, ocean, qty, unit, date, claim);
  computedDuty(r);
  return r.landed_cost;
}

/**
 * The rate of duty that applies to goods of this origin, as the schedule prints it (e.g. "16.5%", "Free", "4.4¢/kg").
 * @customfunction RATE
 * @param hts Tariff code (HTS), 8 or 10 digits.
 * @param [origin] Country of origin: mfn (default), china, col2, kr, an ISO code or a country name.
 * @returns The rate text.
 */
export async function rate(hts: unknown, origin?: unknown): Promise<string> {
  const r = await query(hts, 0, origin);
  if (r.duty_rate === null) throw cellError(CustomFunctions.ErrorCode.notAvailable, `${r.hts}: no rate of duty is printed for this line`);
  return r.duty_rate;
}

/**
 * The schedule's description of a tariff code (headings and subheadings too).
 * @customfunction DESC
 * @param hts Tariff code (HTS): 4, 6, 8 or 10 digits.
 * @returns The description.
 */
export async function desc(hts: unknown): Promise<string> {
  const code = readCode(hts);
  try {
    return (await landed().duties.duty({ hts: code, value: 0 })).description;
  } catch (e) {
    // Headings and subheadings carry no rate, so the duty query refuses them: ask for the record.
    if (!(isApiError(e) && typeof e.details.level === 'number')) throw toCellError(e);
  }
  try {
    return (await landed().record(String(code ?? ''))).description;
  } catch (e) {
    throw toCellError(e);
  }
}

/**
 * The whole duty result as one row that spills to the right; with header TRUE, a header row above it.
 * @customfunction RESULT
 * @param hts Tariff code (HTS), 8 or 10 digits.
 * @param value Customs value in U.S. dollars.
 * @param [origin] Country of origin: mfn (default), china, kr, an ISO code or a country name.
 * @param [s301] Section 301 rate: 25, 7.5, none, or auto.
 * @param [ocean] TRUE when the goods arrive by vessel.
 * @param [header] TRUE to return the column names above the values.
 * @param [qty] Quantity, for specific or compound rates.
 * @param [unit] Unit of the quantity.
 * @param [date] Entry date, a date cell or YYYY-MM-DD (default: today): the chapter 99 layers and fees in force that day.
 * @param [claim] Preference claimed: auto (default), none, usmca, korus, cafta-dr, or a program symbol.
 * @returns One row (two with the header) of the result's fields.
 */
export async function result(
  hts: unknown, value: unknown, origin?: unknown, s301?: unknown, ocean?: unknown, header?: boolean, qty?: unknown, unit?: unknown, date?: unknown, claim?: unknown,
): Promise<unknown[][]> {
  const r = await query(hts, value, origin, s301, ocean, qty, unit, date, claim);
  const row = resultCells(r);
  return header ? [[...RESULT_COLUMNS], row] : [row];
}

/**
 * The leading exporters to the world of the goods of this code's chapter: a table with a header row.
 * @customfunction EXPORTERS
 * @param hts Tariff code (HTS) or chapter, e.g. "8471" or "85".
 * @param [limit] How many exporters (default 10).
 * @returns Rank, ISO3, country, value in U.S. dollars and share, under a header row.
 */
export async function exporters(hts: unknown, limit?: number): Promise<unknown[][]> {
  let data;
  try {
    data = await landed().exporters(String(hts ?? ''), limit ?? undefined);
  } catch (e) {
    throw toCellError(e);
  }
  if (!data.exporters.length) throw cellError(CustomFunctions.ErrorCode.notAvailable, `No exporter data for chapter ${data.chapter}`);
  return [
    ['Rank', 'ISO3', 'Country', 'Value (USD)', 'Share'],
    ...data.exporters.map((x) => [x.rank, x.iso3, x.country, x.value_usd, x.share]),
  ];
}

/**
 * Find the code: the schedule's lines for words describing the goods (best first, one line per subheading first), or the lines under a code: a table of code, description and general rate under a header row.
 * @customfunction SEARCH
 * @param words Words describing the goods, e.g. "men's cotton t-shirts", or a code such as "8471.30".
 * @param [n] How many lines (default 5, at most 50).
 * @returns Code, description (heading > ... > line) and general rate, under a header row.
 */
export async function search(words: unknown, n?: number): Promise<unknown[][]> {
  let answer;
  try {
    answer = await landed().search(String(words ?? '').trim(), n ?? SPILLED_LINES);
  } catch (e) {
    throw toCellError(e);
  }
  if (!answer.results.length) throw cellError(CustomFunctions.ErrorCode.notAvailable, nothingFound(answer));
  return searchCells(answer);
}
