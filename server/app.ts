/**
 * The /api/v1 service on Fastify: routing, body limits and logging come from a well-kept
 * framework; the rules (auth, rate limits, error shape) are ours and live here in one place.
 */
import { existsSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyCors from '@fastify/cors';
import fastifyStatic from '@fastify/static';
import { errorBodyOf, InputError, type Tariff } from '../shared/index.js';
import { KeyStoreUnavailable, type KeyStore } from './auth/key-store.js';
import type { RateDecision, RateLimiter } from './auth/rate-limit.js';
import type { ExportersTable } from './data/exporters.js';
import { ApiError, errorBody, STATUS, type ErrorCode } from './errors.js';
import { openapi } from './openapi.js';

export const MAX_LINES = 1000;
export const BODY_LIMIT = 2 * 1024 * 1024;

export interface AppDeps {
  tariff: Tariff;
  exporters: ExportersTable;
  keys: KeyStore;
  /** Per key, on every /api/v1 endpoint. */
  keyLimiter: RateLimiter;
  /** Per client address, for requests without a valid key (and the public document). */
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

/** `?key=` never reaches a log line. */
export function redactKey(url: string): string {
  return url.replace(/([?&]key=)[^&#]*/gi, '$1[redacted]');
}

declare module 'fastify' {
  interface FastifyRequest {
    rate?: RateDecision;
  }
}

const QUERY_PARAMS: Record<string, readonly string[]> = {
  '/api/v1/duty': ['hts', 'value', 'origin', 's301', 'ocean', 'date', 'qty', 'unit', 'key'],
  '/api/v1/exporters': ['hts', 'limit', 'key'],
  '/api/v1/hts/:code': ['key'],
  '/api/v1/duty/bulk': ['key'],
  '/api/v1/duty/batch': ['key'],
  '/api/v1/openapi.json': ['key'],
};

export function buildApp(deps: AppDeps): FastifyInstance {
  const timeout = (deps.requestTimeoutSeconds ?? 30) * 1000;
  // Node enforces the header and request time-outs only when it checks its connections (every
  // 30 s by default): check at least every second, so a slow sender is cut off on time.
  const connectionsCheckingInterval = Math.min(timeout, 1000);
  const app = Fastify({
    ...(deps.https ? { https: { ...deps.https, connectionsCheckingInterval } } : { http: { connectionsCheckingInterval } }),
    bodyLimit: BODY_LIMIT,
    requestTimeout: timeout,
    connectionTimeout: timeout,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    clientErrorHandler: (err: NodeJS.ErrnoException & { reason?: string }, socket) => clientError(err, socket, timeout),
    trustProxy: process.env.TRUST_PROXY === '1',
    logger: deps.logger ? { level: deps.logger.level ?? 'info', ...(deps.logger.stream ? { stream: deps.logger.stream } : {}) } : false,
    // One line per request (onResponse below) instead of Fastify's two: half the logging cost.
    logController: new LogController({ disableRequestLogging: true }),
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

  const send = (reply: FastifyReply, code: ErrorCode, message: string, details?: Record<string, unknown>) =>
    reply.code(STATUS[code]).type('application/json; charset=utf-8').send(errorBody(code, message, details));

  const setRateHeaders = (reply: FastifyReply, d: RateDecision) => {
    reply.header('X-RateLimit-Limit', d.limit).header('X-RateLimit-Remaining', d.remaining).header('X-RateLimit-Reset', d.reset);
    if (!d.allowed) reply.header('Retry-After', d.reset);
  };

  // Callback style, not async: no promise and microtask per request. Answering here ends the
  // request; otherwise done() lets it through.
  app.addHook('onRequest', (request, reply, done) => {
    if (!refused(request, reply)) done();
  });

  /** Authentication, rate limits and query checks of /api/v1: the reply when the request is refused. */
  function refused(request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
    if (!request.url.startsWith('/api/v1')) return;
    const path = request.routeOptions.url;
    if (path === '/api/v1/openapi.json') {
      const d = deps.addressLimiter.hit(`ip:${request.ip}`);
      setRateHeaders(reply, d);
      if (!d.allowed) return send(reply, 'rate_limited', `Too many requests from this address; retry in ${d.reset} s`, { retry_after: d.reset });
      return;
    }
    const key = presentedKey(request);
    const id = key === null ? null : deps.keys.verify(key);
    if (id === null) {
      const d = deps.addressLimiter.hit(`ip:${request.ip}`);
      setRateHeaders(reply, d);
      if (!d.allowed) return send(reply, 'rate_limited', `Too many unauthenticated requests from this address; retry in ${d.reset} s`, { retry_after: d.reset });
      reply.header('WWW-Authenticate', 'Bearer realm="landed"');
      return send(reply, 'unauthorized', key === null ? 'An API key is required: send Authorization: Bearer <key>' : 'The API key is not valid (unknown or revoked)');
    }
    const d = deps.keyLimiter.hit(`key:${id}`);
    setRateHeaders(reply, d);
    if (!d.allowed) return send(reply, 'rate_limited', `Rate limit of ${d.limit} requests per minute reached; retry in ${d.reset} s`, { retry_after: d.reset });
    const allowed = path ? QUERY_PARAMS[path] : undefined;
    if (allowed) {
      for (const [name, v] of Object.entries(request.query as Record<string, unknown>)) {
        if (!allowed.includes(name)) return send(reply, 'invalid_parameter', `Unknown parameter ${JSON.stringify(name.slice(0, 40))}; this endpoint takes ${allowed.filter((p) => p !== 'key').join(', ') || 'no query parameters'}`, { parameter: name });
        if (Array.isArray(v)) return send(reply, 'invalid_parameter', `${name} is given more than once`, { parameter: name });
      }
    }
  }

  app.setErrorHandler((error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof InputError) {
      const body = errorBodyOf(error);
      return send(reply, body.code, body.message, body.details);
    }
    if (error instanceof ApiError) return send(reply, error.code, error.message, error.details);
    if (error instanceof KeyStoreUnavailable) {
      request.log.error({ err: error.message }, 'key store unavailable');
      reply.header('Retry-After', 5);
      return send(reply, 'service_unavailable', 'The key store is unavailable; retry shortly');
    }
    const fe = error as FastifyError;
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return send(reply, 'payload_too_large', `The body exceeds ${BODY_LIMIT} bytes (2 MB)`);
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return send(reply, 'unsupported_media_type', 'The body must be application/json');
    if (fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError || error instanceof RangeError)
      return send(reply, 'invalid_json', `The body is not valid JSON: ${error.message.slice(0, 200)}`);
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) return send(reply, 'invalid_parameter', error.message.slice(0, 200));
    request.log.error({ err: { message: error.message, stack: error.stack } }, 'unhandled error');
    return send(reply, 'internal', 'An internal error occurred');
  });

  app.setNotFoundHandler((request, reply) => send(reply, 'not_found', `No such endpoint: ${request.method} ${redactKey(request.url).split('?')[0].slice(0, 100)}`));

  app.get('/healthz', async () => ({ status: 'ok', hts_revision: deps.tariff.revision }));
  app.get('/api/v1/openapi.json', async () => openapi);

  // Synchronous, and serialized by the schema the OpenAPI document publishes (fast-json-stringify):
  // both measurably cheaper per request than an async handler and JSON.stringify.
  app.get('/api/v1/duty', { schema: { response: { 200: openapi.components.schemas.DutyResult } } }, (request) => deps.tariff.duty(request.query as Record<string, string>));

  app.get('/api/v1/hts/:code', async (request) => deps.tariff.record((request.params as { code: string }).code));

  app.get('/api/v1/exporters', async (request) => {
    const q = request.query as Record<string, string>;
    return deps.exporters.top(q.hts, q.limit);
  });

  app.post('/api/v1/duty/bulk', async (request) => {
    const body = jsonObject(request.body);
    lineArray(body.items, 'items');
    return deps.tariff.order(body as never);
  });

  app.post('/api/v1/duty/batch', async (request) => {
    const queries = lineArray(jsonObject(request.body).queries, 'queries');
    return {
      results: queries.map((q, i) => {
        try {
          if (q === null || typeof q !== 'object' || Array.isArray(q)) throw new InputError('invalid_parameter', `queries[${i}]`, `queries[${i}] must be an object with hts and value`);
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

/**
 * Requests Node refuses before any route sees them (a request line or headers that are not valid
 * HTTP, such as raw control characters or non-ASCII bytes in the URL; headers over 16 KB; a request
 * not received in time): answered in the API's error shape, naming the problem; then the
 * connection closes.
 */
function clientError(err: NodeJS.ErrnoException & { reason?: string }, socket: Duplex, timeoutMs: number): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [code, message]: [ErrorCode, string] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? ['request_timeout', `The request was not received in full within ${timeoutMs / 1000} s`]
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? ['headers_too_large', 'The request line and headers exceed 16 KB']
        : ['invalid_parameter', `The request is not valid HTTP (${err.reason ?? err.code}): control characters and bytes outside ASCII in the URL must be percent-encoded`];
  const body = JSON.stringify(errorBody(code, message));
  if (socket.writable)
    socket.write(`HTTP/1.1 ${STATUS[code]} ${STATUS_CODES[STATUS[code]]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
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
