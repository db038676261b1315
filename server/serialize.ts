/**
 * Every response body of the service, one function per kind: what the engine and the tables
 * return, as JSON.stringify writes it (the engine builds each result with exactly the fields the
 * OpenAPI document lists, in its order).
 */
import type { DutyResult, ErrorBody, HtsRecord, OrderResult, SearchAnswer } from '../shared/index.js';
import type { ExportersResult } from './data/exporters.js';
import { errorBody, type ErrorCode } from './errors.js';

export const dutyJson = (result: DutyResult): string => JSON.stringify(result);

/**
 * An order's answer as bytes, each line stringified and encoded on its own: a single description
 * with a character past U+00FF ("—", "ε") would otherwise make the whole 0.8 MB text a two-byte
 * string, slower to write and to encode (about a third of the answer's CPU, npm run bench).
 */
export function orderJson(result: OrderResult): Buffer {
  const { lines, ...rest } = result;
  const parts = [Buffer.from('{"lines":[')];
  lines.forEach((line, i) => parts.push(Buffer.from(i === 0 ? JSON.stringify(line) : `,${JSON.stringify(line)}`)));
  // The fields after `lines`, in their order: the object's own text without its opening brace.
  parts.push(Buffer.from(`],${JSON.stringify(rest).slice(1)}`));
  return Buffer.concat(parts);
}

export const batchJson = (results: (DutyResult | { error: ErrorBody })[]): string => JSON.stringify({ results });

export const searchJson = (answer: SearchAnswer): string => JSON.stringify(answer);

export const searchBatchJson = (answers: (SearchAnswer | { error: ErrorBody })[]): string => JSON.stringify({ answers });

export const recordJson = (record: HtsRecord): string => JSON.stringify(record);

export const exportersJson = (result: ExportersResult): string => JSON.stringify(result);

export const healthJson = (health: { status: string; hts_revision: string; key_store: string; rate_limiter: string }): string => JSON.stringify(health);

let doc: string | undefined;
/**
 * The document never changes while the process runs: written once. Its module is loaded then, not at
 * start: 46 kB of code and the document's objects that most starts never need.
 */
export const openapiJson = async (): Promise<string> => (doc ??= JSON.stringify((await import('./openapi.js')).openapi));

export const errorJson = (code: ErrorCode, message: string, details?: Record<string, unknown>): string => JSON.stringify(errorBody(code, message, details));
