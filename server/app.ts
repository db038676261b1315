/**
 * The /api/v1 service on node:http (node:https with a certificate): routing, the gate, bodies,
 * errors, logging and the lifecycle are this file and server/http/; the rules (auth, rate limits,
 * error shape) live here in one place. No framework: a request is a handful of function calls on
 * the response object Node makes anyway (server/http/exchange.ts); the framework's own work had
 * cost about 10 µs of server CPU per GET /duty (README, Dependencies).
 *
 * One gate: every /api/v1 route goes through it (key → limit → the route's query parameters)
 * after the path was decoded and matched, so whatever spelling of a path is matched
 * (`/%61pi/v1/duty`, an absolute-form target, HEAD) reaches the handler only through it. A path
 * nothing matches is a JSON 404, or a 405 naming the methods the path has.
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import pino from 'pino';
import { checkFields, DUTY_QUERY_PARAMS, errorBodyOf, InputError, MAX_SEARCH_TEXT, MAX_SEARCHES, resultLimit, type Tariff } from '../shared/index.js';
import type { KeyStore } from './auth/key-store.js';
import type { RateDecision, RateLimiter } from './auth/rate-limit.js';
import type { ExportersTable } from './data/exporters.js';
import { ApiError, STATUS, StoreUnavailable, type ErrorCode } from './errors.js';
import { readJsonBody } from './http/body.js';
import { decodePath, Exchange, rawAnswer, readHeaders, splitTarget, type Handler } from './http/exchange.js';
import { parseQuery } from './http/query.js';
import { staticFile } from './http/static.js';
import { createLog, requestLogger, type Logger } from './log.js';
import { capeAnswer } from './routes/refunds.js';
import { batchJson, dutyJson, errorJson, exportersJson, healthJson, openapiJson, orderJson, recordJson, searchBatchJson, searchJson } from './serialize.js';

export const MAX_LINES = 1000;
export const BODY_LIMIT = 2 * 1024 * 1024;
/** Longest path parameter (a tariff code is at most 13 characters, dotted). */
export const MAX_PARAM_LENGTH = 100;

export interface AppDeps {
  tariff: Tariff;
  exporters: ExportersTable;
  keys: KeyStore;
  /** Per key, on every /api/v1 endpoint. */
  keyLimiter: RateLimiter;
  /** Per client address, for requests without a valid key (and, apart, the public document). */
  addressLimiter: RateLimiter;
  /** Structured logs (pino); request URLs always go through redactKey. Off when omitted. */
  logger?: { level?: string; stream?: NodeJS.WritableStream };
  /** Folder whose excel/ and sheets/ subfolders are served at /excel/ and /sheets/ (the built add-ins). */
  staticRoot?: string;
  /** Origins allowed to call the API from a browser; none by default (same origin only). */
  corsOrigins?: string[];
  /** Serve HTTPS with this certificate (Office loads add-ins only over https). */
  https?: { cert: Buffer; key: Buffer };
  /** Seconds a client may take to send its headers and its whole request. */
  requestTimeoutSeconds?: number;
  /** How many proxies in front of the service append to X-Forwarded-For (TRUST_PROXY); 0: the peer's address is the client's. */
  trustedProxies?: number;
}

export interface App {
  /** Starts listening; the service's URL. */
  listen(at: { port: number; host: string }): Promise<string>;
  /** Finishes the requests in flight (new ones get 503), closes idle connections, stops listening. */
  close(): Promise<void>;
  log: Logger;
}

/** Anything shaped like a key, in any case, once percent-decoding is undone. */
const KEY_SHAPE = /lk_[A-Za-z0-9_-]{8,}/i;

/**
 * A URL as a log line may show it: the value of every parameter whose decoded name is `key` (in
 * any case: `?%6Bey=`, `k%65y=`, `KEY=`), and every part of the path or query (between `/ ? & = #`)
 * that, percent-decoded as often as it takes, holds anything shaped like a key, are replaced.
 */
export function redactKey(url: string): string {
  if (!/key|%|lk_/i.test(url)) return url;
  let keyValue = false;
  return url.replace(/[^/?&=#]+|[/?&=#]/g, (part) => {
    if (part.length === 1 && '/?&=#'.includes(part)) {
      if (part !== '=') keyValue = false;
      return part;
    }
    const decoded = fullyDecoded(part);
    const redact = keyValue || KEY_SHAPE.test(decoded);
    keyValue = decoded.toLowerCase() === 'key';
    return redact ? '[redacted]' : part;
  });
}

/** Percent-decoding undone, again and again (a key encoded twice is still a key), byte by byte so bad encoding cannot stop it. */
function fullyDecoded(text: string): string {
  for (let i = 0; i < 4 && text.includes('%'); i++) text = text.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return text.replace(/\+/g, ' ');
}

/** Every keyed route also takes `key` in the query (discouraged, accepted). */
const KEY_PARAM = ['key'];
const GET = ['GET', 'HEAD'];
const POST = ['POST'];
const HTS_PREFIX = '/api/v1/hts/';
const JSON_TYPE = 'application/json; charset=utf-8';
/** On every answer of the API: never sniffed nor cached (answers depend on the key and the date). */
const API_HEADERS = ['X-Content-Type-Options', 'nosniff', 'Cache-Control', 'no-store'];
const JSON_HEADERS = ['Content-Type', JSON_TYPE, ...API_HEADERS];
const CSV_HEADERS = ['Content-Type', 'text/csv; charset=utf-8', ...API_HEADERS];
/** Whose limit a 429 names. */
const KEY_LIMIT = (d: RateDecision) => `Rate limit of ${d.limit} requests per 60 seconds reached`;
const ADDRESS_LIMIT = () => 'Too many unauthenticated requests from this address';
const DOCUMENT_LIMIT = () => 'Too many requests from this address';
/** How long an address found with no refused request counted is trusted, and how many are kept. */
const CLEAN_FOR_MS = 1000;
const MAX_CLEAN_ADDRESSES = 10_000;
const CORS_EXPOSED = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After';

/**
 * A route: its methods, what stands before its handler (`key`: the key, its limit and the query
 * parameters `params`; `public`: the per-address limit of the public document; `none`), and the
 * handler, which answers (or throws: the error is answered in the API's shape).
 */
interface Route extends Handler {
  methods: readonly string[];
  gate: 'key' | 'public' | 'none';
}

export function buildApp(deps: AppDeps): App {
  const timeout = (deps.requestTimeoutSeconds ?? 30) * 1000;
  const log = deps.logger ? createLog(deps.logger.level ?? 'info', deps.logger.stream) : pino({ enabled: false });
  const logRequest = deps.logger ? requestLogger(log) : null;
  const trustedProxies = deps.trustedProxies ?? 0;
  const corsOrigins = deps.corsOrigins?.length ? new Set(deps.corsOrigins) : null;
  let closing = false;
  /** Each key's limiter id, made once: the same string each time is hashed once for the limiter's map. */
  const limiterIds: string[] = [];
  /** Addresses with no request without a valid key counted, and until when that is trusted (keyGate). */
  const cleanAddresses = new Map<string, number>();
  const peeking = new Map<string, Promise<RateDecision>>();

  // --- answers -------------------------------------------------------------------------------

  /** A JSON answer of the API: its type and length, never sniffed nor cached, the limit's headers once known. */
  function sendJson(res: Exchange, status: number, body: string | Buffer, headers = JSON_HEADERS): void {
    res.writeHead(status, apiHeaders(res, Buffer.byteLength(body), headers));
    res.end(body);
    logged(res);
  }

  // While closing, every answer closes its connection: one kept alive would hold the closing server open until its idle time-out.
  function sendEmpty(res: Exchange, status: number): void {
    res.writeHead(status, apiHeaders(res, null, API_HEADERS));
    res.end();
    logged(res);
  }

  /** An API answer's headers: its length (none on a 204), `common`, the limit's headers once known, the route's own (`res.header`), and Connection: close while closing. */
  function apiHeaders(res: Exchange, contentLength: number | null, common: readonly string[]): (string | number)[] {
    const headers: (string | number)[] = contentLength === null ? [...common] : ['Content-Length', contentLength, ...common];
    const d = res.limit;
    if (d !== null) headers.push('X-RateLimit-Limit', d.limit, 'X-RateLimit-Remaining', d.remaining, 'X-RateLimit-Reset', d.reset);
    if (res.extra !== null) headers.push(...res.extra);
    if (closing) headers.push('Connection', 'close');
    return headers;
  }

  function sendError(res: Exchange, code: ErrorCode, message: string, details?: Record<string, unknown>): void {
    sendJson(res, STATUS[code], errorJson(code, message, details));
  }

  /** Whatever a step threw, answered in the API's error shape; a store unavailable is a 503 to retry. */
  function fail(res: Exchange, error: unknown): void {
    // Answered already.
    if (res.headersSent || res.destroyed) return;
    if (error instanceof InputError) {
      const body = errorBodyOf(error);
      return sendError(res, body.code, body.message, body.details);
    }
    if (error instanceof ApiError) return sendError(res, error.code, error.message, error.details);
    if (error instanceof StoreUnavailable) {
      log.error({ err: error.message }, `${error.store} unavailable`);
      res.header('Retry-After', 5);
      return sendError(res, 'service_unavailable', `The ${error.store} is unavailable; retry shortly`);
    }
    const e = error as Error;
    log.error({ err: { message: redactKey(String(e?.message)), stack: e?.stack && redactKey(e.stack) } }, 'unhandled error');
    sendError(res, 'internal', 'An internal error occurred');
  }

  /** `next(res, value)` once the promise settles; what it throws, or the promise rejects with, is answered by `fail`. */
  function later<T>(value: Promise<T>, res: Exchange, next: (res: Exchange, v: T) => void): void {
    value.then(
      (v) => {
        try {
          next(res, v);
        } catch (e) {
          fail(res, e);
        }
      },
      (e) => fail(res, e),
    );
  }

  // --- the gate ------------------------------------------------------------------------------
  // Plain functions, not async: a store in this process (SQLite, the in-memory limiter) answers at
  // once and the request goes through without a promise or a closure; a store over the network
  // (PostgreSQL, Redis) answers with a promise, and the gate goes on when it settles.

  /** The limit's headers on the answer; when over the limit, the 429 answer (`what` says whose limit, written only then) and true. */
  function overLimit(res: Exchange, d: RateDecision, what: (d: RateDecision) => string): boolean {
    res.limit = d;
    if (d.allowed) return false;
    res.header('Retry-After', d.reset);
    sendError(res, 'rate_limited', `${what(d)}; retry in ${d.reset} s`, { retry_after: d.reset });
    return true;
  }

  /**
   * An address past its limit of requests without a valid key is refused before any key is looked
   * up: every keyed request from it is a 429 until the limit's span has passed, so its answers say
   * nothing about which keys are valid, and its refusals cost the key store nothing. An address
   * with no such request counted is trusted for a second (as a confirmed key is) without asking the
   * limiter again: a shared limiter (Redis) is then asked once a request only, as before. A request
   * without a valid key from it ends that trust at once.
   */
  function keyGate(res: Exchange): void {
    const now = Date.now();
    if ((cleanAddresses.get(res.ip) ?? 0) > now) return addressChecked(res, null);
    const d = peekAddress(res.ip);
    if (d instanceof Promise) return later(d, res, addressChecked);
    addressChecked(res, d);
  }

  /** The address's decision; requests of one address arriving together share one question to a shared limiter. */
  function peekAddress(ip: string): RateDecision | Promise<RateDecision> {
    const asked = peeking.get(ip);
    if (asked !== undefined) return asked;
    const d = deps.addressLimiter.peek(`auth:${ip}`);
    if (d instanceof Promise) {
      const done = () => void peeking.delete(ip);
      peeking.set(ip, d);
      d.then(done, done);
    }
    return d;
  }

  function addressChecked(res: Exchange, d: RateDecision | null): void {
    if (d !== null) {
      if (!d.allowed) {
        overLimit(res, d, ADDRESS_LIMIT);
        return;
      }
      if (d.remaining === d.limit) {
        if (cleanAddresses.size >= MAX_CLEAN_ADDRESSES) cleanAddresses.clear();
        cleanAddresses.set(res.ip, Date.now() + CLEAN_FOR_MS);
      }
    }
    const key = presentedKey(res);
    res.keyGiven = key !== null;
    const id = key === null ? null : deps.keys.verify(key);
    if (id instanceof Promise) return later(id, res, withId);
    withId(res, id);
  }

  function withId(res: Exchange, id: number | null): void {
    if (id === null) {
      cleanAddresses.delete(res.ip);
      const d = deps.addressLimiter.hit(`auth:${res.ip}`);
      if (d instanceof Promise) return later(d, res, refuse);
      return refuse(res, d);
    }
    const d = deps.keyLimiter.hit((limiterIds[id] ??= `key:${id}`));
    if (d instanceof Promise) return later(d, res, withLimit);
    withLimit(res, d);
  }

  function withLimit(res: Exchange, d: RateDecision): void {
    if (overLimit(res, d, KEY_LIMIT)) return;
    const route = res.route!;
    const query = res.query!;
    checkFields(query, route.params, '', KEY_PARAM);
    for (const name in query) if (typeof query[name] !== 'string') throw new InputError('invalid_parameter', name, `${name} is given more than once`);
    route.run(res);
  }

  /** No valid key: counted against the address, then 401 (or 429 when the address is past its limit). */
  function refuse(res: Exchange, d: RateDecision): void {
    if (overLimit(res, d, ADDRESS_LIMIT)) return;
    res.header('WWW-Authenticate', 'Bearer realm="landed"');
    sendError(res, 'unauthorized', res.keyGiven ? 'The API key is not valid (unknown or revoked)' : 'An API key is required: send Authorization: Bearer <key>');
  }

  /** The public document: limited per address, apart from failed logins of that address. */
  function publicGate(res: Exchange): void {
    const d = deps.addressLimiter.hit(`doc:${res.ip}`);
    if (d instanceof Promise) return later(d, res, publicWithLimit);
    publicWithLimit(res, d);
  }

  function publicWithLimit(res: Exchange, d: RateDecision): void {
    if (overLimit(res, d, DOCUMENT_LIMIT)) return;
    checkFields(res.query!, [], '', KEY_PARAM);
    res.route!.run(res);
  }

  function presentedKey(res: Exchange): string | null {
    const auth = res.authorization;
    // The common spelling without a regular expression; any other goes through it.
    if (auth) return auth.startsWith('Bearer ') && auth.indexOf(' ', 7) < 0 && auth.length > 7 ? auth.slice(7) : (/^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1] ?? '');
    const q = res.query!.key;
    return typeof q === 'string' ? q : null;
  }

  /**
   * The client's address: the peer's, or behind `trustedProxies` proxies that each append the
   * address they were sent from to X-Forwarded-For, the entry the nearest trusted proxy vouches for
   * (the last one for a single proxy). Entries before it are written by the client and never read.
   */
  function ip(req: IncomingMessage): string {
    const peer = req.socket.remoteAddress ?? '';
    if (trustedProxies === 0) return peer;
    const xff = req.headers['x-forwarded-for'];
    if (xff === undefined) return peer;
    const hops = (Array.isArray(xff) ? xff.join(',') : xff).split(',').map((a) => a.trim());
    // [the peer, the last entry, the one before...]: the trusted proxies are the first hops of it.
    const chain = [peer, ...hops.reverse()];
    return chain[Math.min(trustedProxies, chain.length - 1)] || peer;
  }

  // --- routes --------------------------------------------------------------------------------

  /** A POST route's handler with its JSON body; body errors (type, size, syntax) are answered in the API's shape. */
  const withBody =
    (answer: (res: Exchange, body: unknown) => void) =>
    (res: Exchange): void =>
      readJsonBody(res.req, BODY_LIMIT, (err, body) => {
        if (err) return fail(res, err);
        try {
          answer(res, body);
        } catch (e) {
          fail(res, e);
        }
      });

  const routes = new Map<string, Route>([
    ['/healthz', { methods: GET, gate: 'none', params: [], run: health }],
    ['/api/v1/openapi.json', { methods: GET, gate: 'public', params: [], run: (res) => sendJson(res, 200, openapiJson()) }],
    // Synchronous, and serialized by the schema the OpenAPI document publishes.
    ['/api/v1/duty', { methods: GET, gate: 'key', params: DUTY_QUERY_PARAMS, run: (res) => sendJson(res, 200, dutyJson(deps.tariff.duty(res.query as Record<string, string>))) }],
    ['/api/v1/exporters', { methods: GET, gate: 'key', params: ['hts', 'limit'], run: (res) => sendJson(res, 200, exportersJson(deps.exporters.top(res.query!.hts, res.query!.limit))) }],
    ['/api/v1/hts', { methods: GET, gate: 'key', params: ['q', 'limit', 'chapters98_99'], run: (res) => sendJson(res, 200, searchJson(deps.tariff.search(res.query as Record<string, string>))) }],
    [
      '/api/v1/duty/bulk',
      {
        methods: POST,
        gate: 'key',
        params: [],
        run: withBody((res, raw) => {
          const body = jsonObject(raw);
          lineArray(body.items, 'items');
          sendJson(res, 200, orderJson(deps.tariff.order(body as never)));
        }),
      },
    ],
    ['/api/v1/duty/batch', { methods: POST, gate: 'key', params: [], run: withBody((res, raw) => sendJson(res, 200, batchJson(batch(raw)))) }],
    ['/api/v1/hts/batch', { methods: POST, gate: 'key', params: [], run: withBody((res, raw) => sendJson(res, 200, searchBatchJson(searchBatch(raw)))) }],
    ['/api/v1/refunds/cape', { methods: POST, gate: 'key', params: [], run: withBody((res, raw) => { const a = capeAnswer(res, raw, new Date().toISOString().slice(0, 10)); sendJson(res, 200, a.body, a.csv ? CSV_HEADERS : JSON_HEADERS); }) }],
  ]);
  const hts: Route = { methods: GET, gate: 'key', params: ['date'], run: (res) => sendJson(res, 200, recordJson(deps.tariff.record(htsCode(res.rawPath), res.query?.date))) };
  /** /excel/ and /sheets/, when built. */
  const staticDirs = ['excel', 'sheets'].flatMap((addin) => {
    const dir = deps.staticRoot && join(deps.staticRoot, addin);
    return dir && existsSync(dir) ? [{ prefix: `/${addin}/`, route: { methods: GET, gate: 'none', params: [], run: (res: Exchange) => serveFile(res, dir) } as Route }] : [];
  });

  /** The route of a decoded path, or null; a path parameter over MAX_PARAM_LENGTH is a 414. */
  function lookup(path: string): Route | null {
    const exact = routes.get(path);
    if (exact !== undefined) return exact;
    if (path.startsWith(HTS_PREFIX)) {
      const slash = path.indexOf('/', HTS_PREFIX.length);
      if ((slash < 0 ? path.length : slash) - HTS_PREFIX.length > MAX_PARAM_LENGTH) throw new ApiError('uri_too_long', `A path segment exceeds ${MAX_PARAM_LENGTH} characters`);
      return slash < 0 ? hts : null;
    }
    for (const s of staticDirs) if (path.startsWith(s.prefix)) return s.route;
    return null;
  }

  function batch(raw: unknown) {
    const body = jsonObject(raw);
    checkFields(body, ['queries']);
    return lineArray(body.queries, 'queries').map((q, i) => {
      try {
        if (q === null || typeof q !== 'object' || Array.isArray(q)) throw new InputError('invalid_parameter', `queries[${i}]`, `queries[${i}] must be an object with hts and value`);
        // Each query answers exactly as GET /duty would, its errors included.
        checkFields(q, DUTY_QUERY_PARAMS);
        return deps.tariff.duty(q as Record<string, unknown>);
      } catch (e) {
        if (e instanceof InputError) return { error: errorBodyOf(e) };
        throw e;
      }
    });
  }

  /** Several searches in one request (an order's descriptions): each answered as GET /hts?q= would, its errors included. */
  function searchBatch(raw: unknown) {
    const body = jsonObject(raw);
    checkFields(body, ['queries', 'limit']);
    const queries = lineArray(body.queries, 'queries');
    if (queries.length > MAX_SEARCHES)
      throw new ApiError('too_many_lines', `queries has ${queries.length} entries; at most ${MAX_SEARCHES} per request`, { parameter: 'queries', max: MAX_SEARCHES, given: queries.length });
    const text = queries.reduce((n: number, q) => n + (typeof q === 'string' ? q.length : 0), 0);
    if (text > MAX_SEARCH_TEXT)
      throw new ApiError('too_many_lines', `queries hold ${text} characters in all; at most ${MAX_SEARCH_TEXT} per request`, { parameter: 'queries', max_characters: MAX_SEARCH_TEXT, given_characters: text });
    // One limit for the whole batch: a bad one is the request's error, not each query's.
    const limit = resultLimit(body.limit);
    return queries.map((q, i) => {
      try {
        return deps.tariff.search({ q, limit }, `queries[${i}]`);
      } catch (e) {
        if (e instanceof InputError) return { error: errorBodyOf(e) };
        throw e;
      }
    });
  }

  function health(res: Exchange): void {
    Promise.all([deps.keys.health(), deps.keyLimiter.health?.() ?? { ok: true }]).then(([store, limiter]) => {
      const ok = store.ok && limiter.ok;
      const state = (h: { ok: boolean }) => (h.ok ? 'ok' : 'unavailable');
      sendJson(res, ok ? 200 : 503, healthJson({ status: ok ? 'ok' : 'unavailable', hts_revision: deps.tariff.revision, key_store: state(store), rate_limiter: state(limiter) }));
    }, (e) => fail(res, e));
  }

  /** A file of `dir`: what follows /excel/ or /sheets/ in the path as sent (decodeURI keeps the segments apart, so they line up). */
  function serveFile(res: Exchange, dir: string): void {
    const req = res.req;
    staticFile(dir, res.rawPath.split('/').slice(2).join('/'), { ifNoneMatch: req.headers['if-none-match'], ifModifiedSince: req.headers['if-modified-since'] }).then((file) => {
      if (!file) return notFound(res);
      if (res.extra !== null) for (let i = 0; i < res.extra.length; i += 2) file.headers[res.extra[i] as string] = res.extra[i + 1];
      if (closing) file.headers.Connection = 'close';
      res.writeHead(file.status, file.headers);
      res.end(file.body ?? undefined);
      logged(res);
    }, (e) => fail(res, e));
  }

  function notFound(res: Exchange): void {
    sendError(res, 'not_found', `No such endpoint: ${res.req.method} ${redactKey(res.rawPath).slice(0, 100)}`);
  }

  // --- a request -----------------------------------------------------------------------------

  function handle(req: IncomingMessage, res: Exchange): void {
    latest.set(req.socket, res);
    res.ip = ip(req);
    try {
      if (corsOrigins !== null && cors(req, res)) return;
      if (closing) {
        res.header('Retry-After', 5);
        return sendError(res, 'service_unavailable', 'The service is shutting down; retry shortly');
      }
      splitTarget(res, req.url!);
      const path = decodePath(res.rawPath);
      if (path === null) return sendError(res, 'invalid_parameter', 'The path is not valid percent-encoding (a % must be followed by two hexadecimal digits)', { parameter: 'path' });
      res.path = path;
      const route = lookup(path);
      const problem = readHeaders(res);
      if (problem) return sendError(res, 'invalid_parameter', problem, { parameter: 'Host' });
      if (route === null) return notFound(res);
      const method = req.method!;
      if (!route.methods.includes(method)) return wrongMethod(res, method, route.methods);
      res.route = route;
      if (route.gate === 'none') return route.run(res);
      res.query = parseQuery(res.queryString);
      if (route.gate === 'key') keyGate(res);
      else publicGate(res);
    } catch (e) {
      fail(res, e);
    }
  }

  /** OPTIONS: 204 naming the path's methods (without CORS configured, that is all it says); any other method: 405. */
  function wrongMethod(res: Exchange, method: string, methods: readonly string[]): void {
    res.header('Allow', [...methods, 'OPTIONS'].join(', '));
    if (method === 'OPTIONS') return sendEmpty(res, 204);
    sendError(res, 'method_not_allowed', `${method} is not allowed on ${redactKey(res.rawPath).slice(0, 100)}; use ${methods.join(' or ')}`, { allow: methods });
  }

  /** CORS headers for a configured origin (Vary: Origin on every answer, since they depend on it); a preflight is answered here. */
  function cors(req: IncomingMessage, res: Exchange): boolean {
    res.header('Vary', 'Origin');
    const origin = req.headers.origin;
    const allowed = origin !== undefined && corsOrigins!.has(origin);
    if (allowed) {
      res.header('Access-Control-Allow-Origin', origin);
      res.header('Access-Control-Expose-Headers', CORS_EXPOSED);
    }
    if (req.method !== 'OPTIONS' || origin === undefined || req.headers['access-control-request-method'] === undefined) return false;
    if (allowed) {
      res.header('Access-Control-Allow-Methods', 'GET, HEAD, POST');
      res.header('Access-Control-Allow-Headers', 'Authorization, Content-Type');
    }
    sendEmpty(res, 204);
    return true;
  }

  /** The request's line once its answer is handed to the kernel. */
  function logged(res: Exchange): void {
    if (logRequest !== null) res.once('finish', logLine);
  }

  /** The one line per request; the URL without keys. */
  function logLine(this: Exchange): void {
    const req = this.req;
    logRequest!({ method: req.method!, url: redactKey(req.url!), statusCode: this.statusCode, responseTime: performance.now() - this.started, ip: this.ip });
  }

  /**
   * Requests Node refuses before any route sees them (a request line or headers that are not valid
   * HTTP, such as raw control characters or non-ASCII bytes in the URL; headers over 16 KB; a request
   * not received in time): answered in the API's error shape, naming the problem; then the
   * connection closes. The raw request is never logged (it may hold a key).
   */
  function clientError(err: NodeJS.ErrnoException & { reason?: string }, socket: Duplex): void {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    // The error is in what followed a request already answered (a body sent after an early 401 or
    // 413, malformed or too slow): a second answer to one request would confuse the client, so the
    // connection just closes.
    const res = latest.get(socket);
    if (res !== undefined && res.headersSent && (!res.writableFinished || !res.req.complete)) {
      socket.destroy();
      return;
    }
    const [code, message]: [ErrorCode, string] =
      err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ['request_timeout', `The request was not received in full within ${timeout / 1000} s`]
        : err.code === 'HPE_HEADER_OVERFLOW'
          ? ['headers_too_large', 'The request line and headers exceed 16 KB']
          : ['invalid_parameter', `The request is not valid HTTP (${err.reason ?? err.code}): control characters and bytes outside ASCII in the URL must be percent-encoded`];
    log.info({ statusCode: STATUS[code], error: err.code }, 'request refused before routing');
    if (socket.writable) socket.write(rawAnswer(STATUS[code], JSON_HEADERS, errorJson(code, message)));
    socket.destroy();
  }

  // --- the server ----------------------------------------------------------------------------

  const serverOptions = {
    ServerResponse: Exchange,
    // A request without Host is answered by handle() in the API's error shape, not with Node's empty 400.
    requireHostHeader: false,
    requestTimeout: timeout,
    headersTimeout: Math.min(timeout, 10_000),
    // Node enforces the two time-outs only when it checks its connections (every 30 s by default):
    // check at least every second, so a slow sender is cut off on time.
    connectionsCheckingInterval: Math.min(timeout, 1000),
  };
  // node:https (and TLS) loaded only when asked for: a few milliseconds of every other start.
  const server: Server<typeof IncomingMessage, typeof Exchange> = deps.https
    ? (createRequire(import.meta.url)('node:https') as typeof import('node:https')).createServer({ ...deps.https, ...serverOptions }, handle as never)
    : createServer(serverOptions, handle as never);
  // Longer than the 60 s idle time-out of common load balancers, so they never reuse a connection this side has just closed.
  server.keepAliveTimeout = 72_000;
  // Every header line is kept (Node keeps 2,000 by default and drops the rest unseen), so a second
  // Host far down is still caught; the 16 KB limit on the head bounds how many there can be.
  server.maxHeadersCount = 0;
  server.on('clientError', clientError);
  // Every open connection, for close(): see there.
  const sockets = new Set<Socket>();
  /** Each connection's latest request's answer (weakly: nothing is kept once the connection goes). */
  const latest = new WeakMap<Duplex, Exchange>();
  /** Whether the connection's latest answer is still being made or sent. */
  const answering = (socket: Duplex): boolean => {
    const res = latest.get(socket);
    return res !== undefined && !res.writableFinished;
  };
  server.on(deps.https ? 'secureConnection' : 'connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  return {
    log,
    listen({ port, host }) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const a = server.address() as AddressInfo;
          const url = `${deps.https ? 'https' : 'http'}://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
          log.info(`Server listening at ${url}`);
          resolve(url);
        });
      });
    },
    close() {
      closing = true;
      // close() also closes the idle keep-alive connections; busy ones close after their answer (Connection: close).
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // It also stops the checks that time out a connection which never sends a request (a browser's
      // preconnection, a slow sender): such a connection would hold the close for as long as its
      // client keeps it, so it is closed now. A connection whose answer is still being made is left to finish.
      for (const socket of sockets) if (!answering(socket)) socket.destroy();
      return closed;
    },
  };
}

/** The code of /api/v1/hts/{code}: the last segment as sent, percent-decoded once. */
function htsCode(rawPath: string): string {
  const segment = rawPath.slice(rawPath.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function jsonObject(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ApiError('invalid_parameter', 'The body must be a JSON object', { parameter: 'body' });
  return body as Record<string, unknown>;
}

function lineArray(v: unknown, name: string): unknown[] {
  if (!Array.isArray(v)) throw new ApiError('invalid_parameter', `${name} must be an array`, { parameter: name });
  if (v.length > MAX_LINES) throw new ApiError('too_many_lines', `${name} has ${v.length} entries; at most ${MAX_LINES} per request`, { parameter: name, max: MAX_LINES, given: v.length });
  return v;
}
