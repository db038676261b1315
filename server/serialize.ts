/**
 * Every response body of the service, one function per kind. GET /duty's answer is written by a
 * serializer compiled from the DutyResult schema the OpenAPI document publishes (by
 * fast-json-stringify, ahead of time: scripts/serializers.ts): it writes only what the schema
 * lists, in its order, and costs a fraction of JSON.stringify's generic walk.
 */
import type { DutyResult, ErrorBody, HtsRecord, OrderResult } from '../shared/index.js';
import type { ExportersResult } from './data/exporters.js';
import { errorBody, type ErrorCode } from './errors.js';
import dutyResultJson from './generated/duty-result-json.cjs';
import { KeptBytes } from './http/kept-buffers.js';
import { openapi } from './openapi.js';

export const dutyJson: (result: DutyResult) => string = dutyResultJson;

/** An order's answer: the bytes of `JSON.stringify(result)`, written a line at a time (see kept-buffers.ts). */
export const orderJson = (result: OrderResult): KeptBytes =>
  listJson('{"lines":[', result.lines, `],"totals":${JSON.stringify(result.totals)},"hts_revision":${JSON.stringify(result.hts_revision)},"notes":${JSON.stringify(result.notes)}}`);

/** A batch's answer: the bytes of `JSON.stringify({ results })`, a result at a time. */
export const batchJson = (results: (DutyResult | { error: ErrorBody })[]): KeptBytes => listJson('{"results":[', results, ']}');

/** `head`, the items as JSON separated by commas, `tail`: no string of the whole list is ever made. */
function listJson(head: string, items: readonly unknown[], tail: string): KeptBytes {
  const out = new KeptBytes(items.length * 1024);
  out.add(head);
  for (let i = 0; i < items.length; i++) out.add(i === 0 ? JSON.stringify(items[i]) : `,${JSON.stringify(items[i])}`);
  out.add(tail);
  return out;
}

export const recordJson = (record: HtsRecord): string => JSON.stringify(record);

export const exportersJson = (result: ExportersResult): string => JSON.stringify(result);

export const healthJson = (health: { status: string; hts_revision: string; key_store: string; rate_limiter: string }): string => JSON.stringify(health);

let doc: string | undefined;
/** The document never changes while the process runs: written once. */
export const openapiJson = (): string => (doc ??= JSON.stringify(openapi));

export const errorJson = (code: ErrorCode, message: string, details?: Record<string, unknown>): string => JSON.stringify(errorBody(code, message, details));
