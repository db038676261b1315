/**
 * Every response body of the service, one function per kind. A duty result (GET /duty's answer, a
 * batch's results, an order's lines) is written as bytes by `writeResult`, field by field in the
 * order the engine builds it: exactly the bytes of `JSON.stringify(result)` (tested on thousands
 * of real results), and only the fields DutyResult has.
 */
import type { AdditionalDuty, DutyResult, ErrorBody, HtsRecord, OrderLine, OrderResult } from '../shared/index.js';
import type { ExportersResult } from './data/exporters.js';
import { errorBody, type ErrorCode } from './errors.js';
import { bytesOf, JsonBytes } from './http/json-bytes.js';
import { openapi } from './openapi.js';

/** GET /duty's answer: about 1 kB, copied out of the kept buffer so the buffer is free at once. */
export function dutyJson(result: DutyResult): Buffer {
  const out = new JsonBytes(4096);
  writeResult(out, result);
  const bytes = Buffer.from(out.bytes());
  out.release();
  return bytes;
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
  firstHts: key('hts', '{'),
  hts: key('hts'),
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
  program: key('program', '{'),
  authority: key('authority'),
  heading: key('heading'),
  rate: key('rate'),
  rateKind: key('rate_kind'),
  basis: key('basis'),
  amount: key('amount'),
  refundable: key('refundable'),
};

/** A duty result, or an order's line (its number first), as JSON. */
function writeResult(out: JsonBytes, r: DutyResult & { line?: number }): void {
  if (r.line === undefined) out.raw(K.firstHts);
  else {
    out.raw(K.line);
    out.number(r.line);
    out.raw(K.hts);
  }
  out.string(r.hts);
  out.raw(K.description);
  out.string(r.description);
  out.raw(K.origin);
  out.string(r.origin);
  out.raw(K.customsValue);
  out.number(r.customs_value);
  out.raw(K.dutyRate);
  out.stringOrNull(r.duty_rate);
  out.raw(K.rateBasis);
  out.string(r.rate_basis);
  out.raw(K.duty);
  out.numberOrNull(r.duty);
  out.raw(K.specificRate);
  out.boolean(r.specific_rate);
  out.raw(K.section301);
  out.number(r.section_301);
  out.raw(K.mpf);
  out.number(r.mpf);
  out.raw(K.hmf);
  out.number(r.hmf);
  out.raw(K.totalDutiesFees);
  out.number(r.total_duties_fees);
  out.raw(K.landedCost);
  out.number(r.landed_cost);
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
    if (i > 0) out.byte(44);
    writeLayer(out, r.additional_duties[i]);
  }
  out.byte(93); // ]
  out.raw(K.section232);
  out.number(r.section_232);
  out.raw(K.additionalDuty);
  out.number(r.additional_duty);
  out.raw(K.assumptions);
  writeStrings(out, r.assumptions);
  out.byte(125); // }
}

function writeLayer(out: JsonBytes, l: AdditionalDuty): void {
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
  out.number(l.amount);
  out.raw(K.refundable);
  out.boolean(l.refundable);
  out.byte(125);
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
