/**
 * The /api/v1 service on Fastify: routing, body limits and logging come from a well-kept
 * framework; the rules (auth, rate limits, error shape) are ours and live here in one place.
 *
 * One gate: every /api/v1 route carries the gate as its own onRequest hook, so whatever spelling
 * of a path the router accepts (`/%61pi/v1/duty`, an absolute-form target) reaches the handler only
 * through it. A path no route matches is a JSON 404, or a 405 naming the methods the path has.
 */
import { existsSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type onRequestHookHandler } from 'fastify';
import fastifyCors from '@fastify/cors';
import fastifyStatic from '@fastify/static';
import { checkFields, DUTY_QUERY_PARAMS, errorBodyOf, InputError, type Tariff } from '../shared/index.js';
import type { KeyStore } from './auth/key-store.js';
import type { RateDecision, RateLimiter } from './auth/rate-limit.js';
import type { ExportersTable } from './data/exporters.js';
import { ApiError, errorBody, STATUS, StoreUnavailable, type ErrorCode } from './errors.js';
import { createLog } from './log.js';
import { openapi } from './openapi.js';

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
}

/** Anything shaped like a key, wherever it stands in a URL (a path segment, a misnamed parameter). */
const KEY_SHAPE = /lk_[A-Za-z0-9_-]{8,}/g;

/**
 * A URL as a log line may show it: the value of every parameter whose decoded name is `key` (in
 * any case: `?%6Bey=`, `k%65y=`, `KEY=`) and anything shaped like a key are replaced.
 */
export function redactKey(url: string): string {
  if (!/key|%|lk_/i.test(url)) return url;
  const q = url.indexOf('?');
  let out = url;
  if (q >= 0)
    out =
      url.slice(0, q + 1) +
      url
        .slice(q + 1)
        .split('&')
        .map((pair) => {
          const eq = pair.indexOf('=');
          const name = eq < 0 ? pair : pair.slice(0, eq);
          return decodedName(name).toLowerCase() === 'key' ? `${name}=[redacted]` : pair;
        })
        .join('&');
  return out.replace(KEY_SHAPE, 'lk_[redacted]');
}

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** Every keyed route also takes `key` in the query (discouraged, accepted). */
const KEY_PARAM = ['key'];

export function buildApp(deps: AppDeps): FastifyInstance {
  const timeout = (deps.requestTimeoutSeconds ?? 30) * 1000;
  // Node enforces the header and request time-outs only when it checks its connections (every
  // 30 s by default): check at least every second, so a slow sender is cut off on time.
  const connectionsCheckingInterval = Math.min(timeout, 1000);
  // A request without Host is answered by the onRequest hook below in the API's error shape, not
  // with Node's empty 400.
  const serverOptions = { connectionsCheckingInterval, requireHostHeader: false };
  const app = Fastify({
    ...(deps.https ? { https: { ...deps.https, ...serverOptions } } : { http: serverOptions }),
    bodyLimit: BODY_LIMIT,
    requestTimeout: timeout,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    clientErrorHandler: (err: NodeJS.ErrnoException & { reason?: string }, socket) => clientError(err, socket, timeout, app),
    // Bad percent-encoding and over-long path parameters, found by the router before any route.
    frameworkErrors: (error, _request, reply) => {
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return send(reply, 'uri_too_long', `A path segment exceeds ${MAX_PARAM_LENGTH} characters`);
      return send(reply, 'invalid_parameter', 'The path is not valid percent-encoding (a % must be followed by two hexadecimal digits)', { parameter: 'path' });
    },
    trustProxy: process.env.TRUST_PROXY === '1',
    ...(deps.logger ? { loggerInstance: createLog(deps.logger.level ?? 'info', deps.logger.stream) as FastifyBaseLogger } : { logger: false }),
    // One line per request (onResponse below) instead of Fastify's two, written by the app's own
    // logger: no child logger is made per request.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: (logger) => logger,
  });
  if (deps.logger)
    app.addHook('onResponse', (request, reply, done) => {
      request.log.info({ method: request.method, url: redactKey(request.url), statusCode: reply.statusCode, responseTime: reply.elapsedTime, ip: request.ip }, 'request completed');
      done();
    });
  app.server.headersTimeout = Math.min(timeout, 10_000);
  app.removeContentTypeParser('text/plain');

  if (deps.corsOrigins?.length) app.register(fastifyCors, { origin: deps.corsOrigins, allowedHeaders: ['Authorization', 'Content-Type'], exposedHeaders: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'] });
  for (const addin of ['excel', 'sheets']) {
    const dir = deps.staticRoot && join(deps.staticRoot, addin);
    if (dir && existsSync(dir)) app.register(fastifyStatic, { root: dir, prefix: `/${addin}/`, decorateReply: false });
  }

  function send(reply: FastifyReply, code: ErrorCode, message: string, details?: Record<string, unknown>) {
    return apiHeaders(reply).code(STATUS[code]).type('application/json; charset=utf-8').send(errorBody(code, message, details));
  }

  /** The limit's headers on the answer; when over the limit, the 429 answer (`what` says whose limit) and true. */
  const overLimit = (reply: FastifyReply, d: RateDecision, what: string): boolean => {
    reply.header('X-RateLimit-Limit', d.limit).header('X-RateLimit-Remaining', d.remaining).header('X-RateLimit-Reset', d.reset);
    if (d.allowed) return false;
    reply.header('Retry-After', d.reset);
    send(reply, 'rate_limited', `${what}; retry in ${d.reset} s`, { retry_after: d.reset });
    return true;
  };

  // Every request: one Host header, exactly (HTTP/1.1 requires it; two would let a proxy and this
  // service disagree on which site was asked).
  app.addHook('onRequest', (request, reply, done) => {
    const problem = hostProblem(request.raw.rawHeaders, request.raw.httpVersion);
    if (problem) send(reply, 'invalid_parameter', problem, { parameter: 'Host' });
    else done();
  });

  /**
   * The gate of a keyed /api/v1 route: the key, its limit, then the query parameters the route
   * takes. Callback style, not async: a store in this process answers at once, and the request
   * goes through the steps below without a promise or a closure; a store over the network
   * (PostgreSQL, Redis) answers with a promise, and the gate goes on when it settles. Answering
   * ends the request; an error (a store unavailable) goes to the error handler.
   */
  const gate = (params: readonly string[]): onRequestHookHandler => {
    const withLimit = (request: FastifyRequest, reply: FastifyReply, done: HookDone, d: RateDecision) => {
      if (overLimit(reply, d, `Rate limit of ${d.limit} requests per 60 seconds reached`)) return;
      const query = request.query as Record<string, unknown>;
      checkFields(query, params, '', KEY_PARAM);
      for (const name in query) if (Array.isArray(query[name])) throw new InputError('invalid_parameter', name, `${name} is given more than once`);
      done();
    };
    const withId = (request: FastifyRequest, reply: FastifyReply, done: HookDone, key: string | null, id: number | null) => {
      if (id === null) {
        const d = deps.addressLimiter.hit(`auth:${request.ip}`);
        if (d instanceof Promise) return later(d, done, (d) => refuse(reply, key, d));
        return refuse(reply, key, d);
      }
      const d = deps.keyLimiter.hit(`key:${id}`);
      if (d instanceof Promise) return later(d, done, (d) => withLimit(request, reply, done, d));
      withLimit(request, reply, done, d);
    };
    return (request, reply, done) => {
      apiHeaders(reply);
      const key = presentedKey(request);
      const id = key === null ? null : deps.keys.verify(key);
      if (id instanceof Promise) return later(id, done, (id) => withId(request, reply, done, key, id));
      withId(request, reply, done, key, id);
    };
  };

  /** No valid key: counted against the address, then 401 (or 429 when the address is past its limit). */
  const refuse = (reply: FastifyReply, key: string | null, d: RateDecision) => {
    if (overLimit(reply, d, 'Too many unauthenticated requests from this address')) return;
    reply.header('WWW-Authenticate', 'Bearer realm="landed"');
    return send(reply, 'unauthorized', key === null ? 'An API key is required: send Authorization: Bearer <key>' : 'The API key is not valid (unknown or revoked)');
  };

  /** The public document: limited per address, apart from failed logins of that address. */
  const publicGate: onRequestHookHandler = (request, reply, done) => {
    apiHeaders(reply);
    const d = deps.addressLimiter.hit(`doc:${request.ip}`);
    if (d instanceof Promise) return later(d, done, (d) => publicWithLimit(request, reply, done, d));
    publicWithLimit(request, reply, done, d);
  };
  const publicWithLimit = (request: FastifyRequest, reply: FastifyReply, done: HookDone, d: RateDecision) => {
    if (overLimit(reply, d, 'Too many requests from this address')) return;
    checkFields(request.query as object, [], '', KEY_PARAM);
    done();
  };

  app.setErrorHandler((error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof InputError) {
      const body = errorBodyOf(error);
      return send(reply, body.code, body.message, body.details);
    }
    if (error instanceof ApiError) return send(reply, error.code, error.message, error.details);
    if (error instanceof StoreUnavailable) {
      request.log.error({ err: error.message }, `${error.store} unavailable`);
      reply.header('Retry-After', 5);
      return send(reply, 'service_unavailable', `The ${error.store} is unavailable; retry shortly`);
    }
    const fe = error as FastifyError;
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return send(reply, 'payload_too_large', `The body exceeds ${BODY_LIMIT} bytes (2 MB)`);
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return send(reply, 'unsupported_media_type', 'The body must be application/json');
    if (fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError || error instanceof RangeError)
      return send(reply, 'invalid_json', `The body is not valid JSON: ${redactKey(error.message).slice(0, 200)}`);
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) return send(reply, 'invalid_parameter', redactKey(error.message).slice(0, 200));
    request.log.error({ err: { message: redactKey(error.message), stack: error.stack && redactKey(error.stack) } }, 'unhandled error');
    return send(reply, 'internal', 'An internal error occurred');
  });

  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url);
    const allow = METHODS.filter((m) => app.findRoute({ method: m, url: path }) !== null);
    if (allow.length === 0) return send(reply, 'not_found', `No such endpoint: ${request.method} ${redactKey(path).slice(0, 100)}`);
    const methods = [...allow, 'OPTIONS'].join(', ');
    reply.header('Allow', methods);
    // Without CORS configured, OPTIONS only says which methods the path has.
    if (request.method === 'OPTIONS') return apiHeaders(reply).code(204).send();
    return send(reply, 'method_not_allowed', `${request.method} is not allowed on ${redactKey(path).slice(0, 100)}; use ${allow.join(' or ')}`, { allow });
  });

  app.get('/healthz', async (_request, reply) => {
    const [store, limiter] = await Promise.all([deps.keys.health(), deps.keyLimiter.health?.() ?? { ok: true }]);
    const ok = store.ok && limiter.ok;
    apiHeaders(reply).code(ok ? 200 : 503);
    const state = (h: { ok: boolean }) => (h.ok ? 'ok' : 'unavailable');
    return { status: ok ? 'ok' : 'unavailable', hts_revision: deps.tariff.revision, key_store: state(store), rate_limiter: state(limiter) };
  });
  app.get('/api/v1/openapi.json', { onRequest: publicGate }, async () => openapi);

  // Synchronous, and serialized by the schema the OpenAPI document publishes (fast-json-stringify):
  // both measurably cheaper per request than an async handler and JSON.stringify.
  app.get('/api/v1/duty', { onRequest: gate(DUTY_QUERY_PARAMS), schema: { response: { 200: openapi.components.schemas.DutyResult } } }, (request) =>
    deps.tariff.duty(request.query as Record<string, string>),
  );

  app.get('/api/v1/hts/:code', { onRequest: gate([]) }, async (request) => deps.tariff.record((request.params as { code: string }).code));

  app.get('/api/v1/exporters', { onRequest: gate(['hts', 'limit']) }, async (request) => {
    const q = request.query as Record<string, string>;
    return deps.exporters.top(q.hts, q.limit);
  });

  app.post('/api/v1/duty/bulk', { onRequest: gate([]) }, async (request) => {
    const body = jsonObject(request.body);
    lineArray(body.items, 'items');
    return deps.tariff.order(body as never);
  });

  app.post('/api/v1/duty/batch', { onRequest: gate([]) }, async (request) => {
    const body = jsonObject(request.body);
    checkFields(body, ['queries']);
    const queries = lineArray(body.queries, 'queries');
    return {
      results: queries.map((q, i) => {
        try {
          if (q === null || typeof q !== 'object' || Array.isArray(q)) throw new InputError('invalid_parameter', `queries[${i}]`, `queries[${i}] must be an object with hts and value`);
          // Each query answers exactly as GET /duty would, its errors included.
          checkFields(q, DUTY_QUERY_PARAMS);
          return deps.tariff.duty(q as Record<string, unknown>);
        } catch (e) {
          if (e instanceof InputError) return { error: errorBodyOf(e) };
          throw e;
        }
      }),
    };
  });

  return app;
}

type HookDone = (err?: Error) => void;

/**
 * `next` with what the promise resolves to. Whatever `next` throws, or the promise rejects with,
 * goes to Fastify's error handler through `done` (in the synchronous steps a throw reaches it by
 * itself).
 */
function later<T>(value: Promise<T>, done: HookDone, next: (v: T) => unknown): void {
  value.then(
    (v) => {
      try {
        next(v);
      } catch (e) {
        done(e as Error);
      }
    },
    (e: Error) => done(e),
  );
}

/** Headers of every API answer: never sniffed as another type, never cached (answers depend on the key and the date). */
function apiHeaders(reply: FastifyReply): FastifyReply {
  return reply.header('X-Content-Type-Options', 'nosniff').header('Cache-Control', 'no-store');
}

/** The path of a request target, origin-form or absolute-form, without its query. */
function pathOf(url: string): string {
  const abs = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url);
  const rest = abs ? url.slice(abs[0].length) || '/' : url;
  const q = rest.search(/[?#]/);
  return q < 0 ? rest : rest.slice(0, q);
}

/** Why the Host header is unacceptable: none on HTTP/1.1, or more than one. */
function hostProblem(raw: readonly string[], version: string): string | null {
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 4 && raw[i].toLowerCase() === 'host') hosts++;
  if (hosts > 1) return 'The request has more than one Host header';
  if (hosts === 0 && version !== '1.0') return 'The request has no Host header (HTTP/1.1 requires one)';
  return null;
}

/**
 * Requests Node refuses before any route sees them (a request line or headers that are not valid
 * HTTP, such as raw control characters or non-ASCII bytes in the URL; headers over 16 KB; a request
 * not received in time): answered in the API's error shape, naming the problem; then the
 * connection closes. The raw request is never logged (it may hold a key).
 */
function clientError(err: NodeJS.ErrnoException & { reason?: string }, socket: Duplex, timeoutMs: number, app: FastifyInstance): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [code, message]: [ErrorCode, string] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? ['request_timeout', `The request was not received in full within ${timeoutMs / 1000} s`]
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? ['headers_too_large', 'The request line and headers exceed 16 KB']
        : ['invalid_parameter', `The request is not valid HTTP (${err.reason ?? err.code}): control characters and bytes outside ASCII in the URL must be percent-encoded`];
  app.log.info({ statusCode: STATUS[code], error: err.code }, 'request refused before routing');
  const body = JSON.stringify(errorBody(code, message));
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${STATUS[code]} ${STATUS_CODES[STATUS[code]]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy();
}

function presentedKey(request: FastifyRequest): string | null {
  const auth = request.headers.authorization;
  if (auth) return /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1] ?? '';
  const q = (request.query as Record<string, unknown>).key;
  return typeof q === 'string' ? q : null;
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
