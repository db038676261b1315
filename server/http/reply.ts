/**
 * Every answer of the service is written here, and every error becomes an answer here: the API's
 * headers (type, length, nosniff, no-store, the limit's headers once known, Connection: close while
 * closing), compression, and the one error shape `{"error": {"code", "message", "details"}}`.
 */
import type { Logger } from 'pino';
import { errorBodyOf, InputError } from '../../shared/index.js';
import { ApiError, STATUS, StoreUnavailable, type ErrorCode } from '../errors.js';
import { redactKey } from '../log.js';
import type { Answer } from '../routes/route.js';
import { errorJson } from '../serialize.js';
import { chooseCoding, MIN_COMPRESSED } from './compress.js';
import type { Exchange } from './exchange.js';

/** On every answer of the API: never sniffed nor cached (answers depend on the key and the date). */
export const API_HEADERS = ['X-Content-Type-Options', 'nosniff', 'Cache-Control', 'no-store'];
/** An answer's headers by its type; one that may be compressed says so to caches, whatever this client accepted. */
const typed = (type: string) => ({ plain: ['Content-Type', type, ...API_HEADERS], compressible: ['Content-Type', type, ...API_HEADERS, 'Vary', 'Accept-Encoding'] });
const JSON_ANSWER = typed('application/json; charset=utf-8');
/** The CAPE declaration file (routes/refunds.ts). */
const CSV_ANSWER = typed('text/csv; charset=utf-8');
export const JSON_HEADERS = JSON_ANSWER.plain;

export class Replies {
  /** While closing, every answer closes its connection: one kept alive would hold the closing server open until its idle time-out. */
  closing = false;

  constructor(
    private readonly log: Logger,
    /** Called once the answer is handed to Node (the request's log line). */
    private readonly sent: (res: Exchange) => void,
  ) {}

  /** A handler's answer. */
  answer(res: Exchange, answer: Answer): void {
    if (typeof answer === 'string' || Buffer.isBuffer(answer)) return this.json(res, 200, answer);
    if ('json' in answer) return this.json(res, answer.status, answer.json);
    if ('csv' in answer) return this.body(res, 200, answer.csv, CSV_ANSWER);
    const file = answer.file;
    if (file === null) return this.notFound(res);
    if (res.extra !== null) for (let i = 0; i < res.extra.length; i += 2) file.headers[res.extra[i] as string] = res.extra[i + 1];
    if (this.closing) file.headers.Connection = 'close';
    res.writeHead(file.status, file.headers);
    res.end(file.body ?? undefined);
    this.sent(res);
  }

  /** A JSON answer of the API. */
  json(res: Exchange, status: number, body: string | Buffer): void {
    this.body(res, status, body, JSON_ANSWER);
  }

  /** An answer of the API, compressed when it is 1 KB or more and the client accepts a coding this Node has. */
  private body(res: Exchange, status: number, body: string | Buffer, type: typeof JSON_ANSWER): void {
    const length = Buffer.byteLength(body);
    const coding = length >= MIN_COMPRESSED ? chooseCoding(res.req.headers['accept-encoding']) : null;
    if (coding === null) return this.write(res, status, body, length, length >= MIN_COMPRESSED ? type.compressible : type.plain);
    coding[1](body, (err, out) => {
      if (err) return this.write(res, status, body, length, type.compressible);
      res.header('Content-Encoding', coding[0]);
      this.write(res, status, out, out.length, type.compressible);
    });
  }

  private write(res: Exchange, status: number, body: string | Buffer, length: number, common: readonly string[]): void {
    if (res.destroyed) return;
    res.writeHead(status, this.headers(res, length, common));
    res.end(body);
    this.sent(res);
  }

  empty(res: Exchange, status: number): void {
    res.writeHead(status, this.headers(res, null, API_HEADERS));
    res.end();
    this.sent(res);
  }

  /** An API answer's headers: its length (none on a 204), `common`, the limit's headers once known, the route's own (`res.header`), and Connection: close while closing. */
  private headers(res: Exchange, contentLength: number | null, common: readonly string[]): (string | number)[] {
    const headers: (string | number)[] = contentLength === null ? [...common] : ['Content-Length', contentLength, ...common];
    const d = res.limit;
    if (d !== null) headers.push('X-RateLimit-Limit', d.limit, 'X-RateLimit-Remaining', d.remaining, 'X-RateLimit-Reset', d.reset);
    if (res.extra !== null) headers.push(...res.extra);
    if (this.closing) headers.push('Connection', 'close');
    return headers;
  }

  error(res: Exchange, code: ErrorCode, message: string, details?: Record<string, unknown>): void {
    this.json(res, STATUS[code], errorJson(code, message, details));
  }

  notFound(res: Exchange): void {
    this.error(res, 'not_found', `No such endpoint: ${res.req.method} ${redactKey(res.rawPath).slice(0, 100)}`);
  }

  /** Whatever a step threw, answered in the API's error shape; a store unavailable is a 503 to retry. */
  fail(res: Exchange, error: unknown): void {
    // Answered already.
    if (res.headersSent || res.destroyed) return;
    if (error instanceof InputError) {
      const body = errorBodyOf(error);
      return this.error(res, body.code, body.message, body.details);
    }
    if (error instanceof ApiError) return this.error(res, error.code, error.message, error.details);
    if (error instanceof StoreUnavailable) {
      this.log.error({ err: error.message }, `${error.store} unavailable`);
      res.header('Retry-After', 5);
      return this.error(res, 'service_unavailable', `The ${error.store} is unavailable; retry shortly`);
    }
    const e = error as Error;
    this.log.error({ err: { message: redactKey(String(e?.message)), stack: e?.stack && redactKey(e.stack) } }, 'unhandled error');
    this.error(res, 'internal', 'An internal error occurred');
  }
}
