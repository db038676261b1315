/**
 * Every response body of the service, one function per kind. A duty result (GET /duty's answer, a
 * batch's results, an order's lines) is written as bytes by `writeResult`, field by field in the
 * order the engine builds it, from a template of its line's bytes between the amounts: exactly the
 * bytes of `JSON.stringify(result)` (tested on thousands of real results), and only the fields
 * DutyResult has.
 */
import type { DutyResult, ErrorBody, HtsRecord, OrderLine, OrderResult } from '../shared/index.js';
import type { ExportersResult } from './data/exporters.js';
import { errorBody, type ErrorCode } from './errors.js';
import { bytesOf, JsonBytes } from './http/json-bytes.js';
import { openapi } from './openapi.js';

/** GET /duty's answer: about 1 kB, written in the slab of small answers (json-bytes.ts). */
export function dutyJson(result: DutyResult): Buffer {
  const out = new JsonBytes('small');
  writeResult(out, result);
  return out.sent();
}

/** An order's answer: the bytes of `JSON.stringify(result)`, written a line at a time. */
export function orderJson(result: OrderResult): JsonBytes {
  const out = new JsonBytes(result.lines.length * 1024);
  out.add('{"lines":[');
  writeList(out, result.lines);
  out.add(`],"totals":${JSON.stringify(result.totals)},"hts_revision":${JSON.stringify(result.hts_revision)},"notes":${JSON.stringify(result.notes)}}`);
  return out;
}

/** A batch's answer: the bytes of `JSON.stringify({ results })`, a result at a time. */
export function batchJson(results: (DutyResult | { error: ErrorBody })[]): JsonBytes {
  const out = new JsonBytes(results.length * 1024);
  out.add('{"results":[');
  writeList(out, results);
  out.add(']}');
  return out;
}

/** Results and errors separated by commas: an error (a line's or a query's) as JSON.stringify writes it. */
function writeList(out: JsonBytes, items: readonly (DutyResult | OrderLine | { error: ErrorBody })[]): void {
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out.byte(44); // ,
    const item = items[i];
    if ('error' in item) out.add(JSON.stringify(item));
    else writeResult(out, item);
  }
}

/** Each key with the punctuation before it, as bytes made once. */
const key = (name: string, before = ','): Uint8Array => bytesOf(`${before}"${name}":`);
const K = {
  line: key('line', '{'),
  hts: key('hts', ''),
  description: key('description'),
  origin: key('origin'),
  customsValue: key('customs_value'),
  dutyRate: key('duty_rate'),
  rateBasis: key('rate_basis'),
  duty: key('duty'),
  specificRate: key('specific_rate'),
  section301: key('section_301'),
  mpf: key('mpf'),
  hmf: key('hmf'),
  totalDutiesFees: key('total_duties_fees'),
  landedCost: key('landed_cost'),
  specialProgram: key('special_program'),
  section301Rate: key('section_301_rate'),
  section301Heading: key('section_301_heading'),
  htsRevision: key('hts_revision'),
  notes: key('notes'),
  originCountry: key('origin_country'),
  additionalDuties: key('additional_duties'),
  section232: key('section_232'),
  additionalDuty: key('additional_duty'),
  assumptions: key('assumptions'),
  contentNeeded: key('content_needed'),
  program: key('program', '{'),
  authority: key('authority'),
  heading: key('heading'),
  rate: key('rate'),
  rateKind: key('rate_kind'),
  basis: key('basis'),
  amount: key('amount'),
  refundable: key('refundable'),
};

/**
 * A result's JSON with its amounts left out: the bytes between them, and the values those bytes
 * were written from. The same line costed again for the same origin and terms differs only in its
 * amounts (value, duty, fees, layers): its answer is these bytes with the amounts between, a dozen
 * copies instead of some seventy keys, strings and values written one by one (README, Performance).
 */
interface Template {
  readonly result: DutyResult;
  /** The bytes before each amount, and after the last. */
  readonly between: Uint8Array[];
}

/**
 * Templates by HTS code, a few origins and terms a code, the one used last first. Past
 * TEMPLATES_HELD, the code whose template was made longest ago loses its templates. About 3 kB
 * each (measured over 5,000 real ones; a result's JSON reaches 3 kB, its template then about
 * 6 kB): some 15 MB, and at most about 30 MB whatever the codes asked.
 */
const templates = new Map<string, Template[]>();
const TEMPLATES_PER_CODE = 4;
const TEMPLATES_HELD = 5_000;
/** The templates in the map, over all codes. */
let templateCount = 0;

/** A duty result, or an order's line (its number first), as JSON. */
function writeResult(out: JsonBytes, r: DutyResult & { line?: number }): void {
  const b = templateOf(r).between;
  if (r.line === undefined) out.byte(123); // {
  else {
    out.raw(K.line);
    out.number(r.line);
    out.byte(44);
  }
  // The amounts in the order `build` leaves them out.
  out.raw(b[0]);
  out.number(r.customs_value);
  out.raw(b[1]);
  out.numberOrNull(r.duty);
  out.raw(b[2]);
  out.number(r.section_301);
  out.raw(b[3]);
  out.number(r.mpf);
  out.raw(b[4]);
  out.number(r.hmf);
  out.raw(b[5]);
  out.number(r.total_duties_fees);
  out.raw(b[6]);
  out.number(r.landed_cost);
  let k = 7;
  const layers = r.additional_duties;
  for (let i = 0; i < layers.length; i++) {
    out.raw(b[k++]);
    out.number(layers[i].amount);
  }
  out.raw(b[k++]);
  out.number(r.section_232);
  out.raw(b[k++]);
  out.number(r.additional_duty);
  out.raw(b[k]);
}

/**
 * The template of `r`: one written from a result equal to it but for the amounts, else a new one.
 * Making one costs about twice what writing the result field by field does: a code asked for in
 * more than TEMPLATES_PER_CODE ways in turn, or more than TEMPLATES_HELD ways in all, pays that.
 */
function templateOf(r: DutyResult): Template {
  const list = templates.get(r.hts);
  if (list !== undefined) {
    for (let i = 0; i < list.length; i++) {
      const t = list[i];
      if (!sameButAmounts(t.result, r)) continue;
      if (i > 0) {
        list[i] = list[0];
        list[0] = t;
      }
      return t;
    }
    // Out of the map while a template is added: it goes back last, the last code to be forgotten.
    templates.delete(r.hts);
    templateCount -= list.length;
  }
  while (templateCount >= TEMPLATES_HELD) {
    const [oldest, forgotten] = templates.entries().next().value!;
    templates.delete(oldest);
    templateCount -= forgotten.length;
  }
  const t = build(r);
  const kept = list ?? [];
  kept.unshift(t);
  if (kept.length > TEMPLATES_PER_CODE) kept.pop();
  templates.set(r.hts, kept);
  templateCount += kept.length;
  return t;
}

/**
 * Whether two results of the same code (the map's key) differ at most in their amounts. Strings are
 * compared by value: the same string, usually the same object, is quick to compare.
 */
function sameButAmounts(a: DutyResult, b: DutyResult): boolean {
  if (a.description !== b.description || a.origin !== b.origin || a.duty_rate !== b.duty_rate || a.rate_basis !== b.rate_basis) return false;
  if (a.specific_rate !== b.specific_rate || a.special_program !== b.special_program || a.section_301_rate !== b.section_301_rate || a.section_301_heading !== b.section_301_heading) return false;
  if (a.hts_revision !== b.hts_revision || a.origin_country !== b.origin_country) return false;
  if (!sameStrings(a.notes, b.notes) || !sameStrings(a.assumptions, b.assumptions)) return false;
  if (a.content_needed !== b.content_needed && !(a.content_needed && b.content_needed && sameStrings(a.content_needed, b.content_needed))) return false;
  const x = a.additional_duties;
  const y = b.additional_duties;
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) {
    const l = x[i];
    const m = y[i];
    if (l.program !== m.program || l.authority !== m.authority || l.heading !== m.heading || l.rate !== m.rate || l.rate_kind !== m.rate_kind || l.basis !== m.basis || l.refundable !== m.refundable) return false;
  }
  return true;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The template of `r`: its JSON field by field (after the opening brace and the line number), cut at each amount. */
function build(r: DutyResult): Template {
  const out = new JsonBytes(4096);
  const cuts = [0];
  const cut = () => void cuts.push(out.length);
  out.raw(K.hts);
  out.string(r.hts);
  out.raw(K.description);
  out.string(r.description);
  out.raw(K.origin);
  out.string(r.origin);
  out.raw(K.customsValue);
  cut();
  out.raw(K.dutyRate);
  out.stringOrNull(r.duty_rate);
  out.raw(K.rateBasis);
  out.string(r.rate_basis);
  out.raw(K.duty);
  cut();
  out.raw(K.specificRate);
  out.boolean(r.specific_rate);
  out.raw(K.section301);
  cut();
  out.raw(K.mpf);
  cut();
  out.raw(K.hmf);
  cut();
  out.raw(K.totalDutiesFees);
  cut();
  out.raw(K.landedCost);
  cut();
  out.raw(K.specialProgram);
  out.stringOrNull(r.special_program);
  out.raw(K.section301Rate);
  out.number(r.section_301_rate);
  out.raw(K.section301Heading);
  out.stringOrNull(r.section_301_heading);
  out.raw(K.htsRevision);
  out.string(r.hts_revision);
  out.raw(K.notes);
  writeStrings(out, r.notes);
  out.raw(K.originCountry);
  out.stringOrNull(r.origin_country);
  out.raw(K.additionalDuties);
  out.byte(91); // [
  for (let i = 0; i < r.additional_duties.length; i++) {
    const l = r.additional_duties[i];
    if (i > 0) out.byte(44);
    out.raw(K.program);
    out.string(l.program);
    out.raw(K.authority);
    out.string(l.authority);
    out.raw(K.heading);
    out.stringOrNull(l.heading);
    out.raw(K.rate);
    out.number(l.rate);
    out.raw(K.rateKind);
    out.string(l.rate_kind);
    out.raw(K.basis);
    out.string(l.basis);
    out.raw(K.amount);
    cut();
    out.raw(K.refundable);
    out.boolean(l.refundable);
    out.byte(125); // }
  }
  out.byte(93); // ]
  out.raw(K.section232);
  cut();
  out.raw(K.additionalDuty);
  cut();
  out.raw(K.assumptions);
  writeStrings(out, r.assumptions);
  if (r.content_needed) {
    out.raw(K.contentNeeded);
    writeStrings(out, r.content_needed);
  }
  out.byte(125); // }
  cut();
  // One array for all the bytes, the parts views into it: a template is read from one place in memory.
  const bytes = out.copy();
  out.release();
  const between = cuts.slice(1).map((end, i) => bytes.subarray(cuts[i], end));
  // Copies of the result's parts that are compared: a caller changing its result later changes no template.
  const result = { ...r, notes: [...r.notes], assumptions: [...r.assumptions], additional_duties: r.additional_duties.map((l) => ({ ...l })) };
  if (r.content_needed) result.content_needed = [...r.content_needed];
  return { result, between };
}

function writeStrings(out: JsonBytes, list: readonly string[]): void {
  out.byte(91);
  for (let i = 0; i < list.length; i++) {
    if (i > 0) out.byte(44);
    out.string(list[i]);
  }
  out.byte(93);
}

export const recordJson = (record: HtsRecord): string => JSON.stringify(record);

export const exportersJson = (result: ExportersResult): string => JSON.stringify(result);

export const healthJson = (health: { status: string; hts_revision: string; key_store: string; rate_limiter: string }): string => JSON.stringify(health);

let doc: string | undefined;
/** The document never changes while the process runs: written once. */
export const openapiJson = (): string => (doc ??= JSON.stringify(openapi));

export const errorJson = (code: ErrorCode, message: string, details?: Record<string, unknown>): string => JSON.stringify(errorBody(code, message, details));
