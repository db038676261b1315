/**
 * The /api/v1 service on node:http, composed: the route table (one module per resource under
 * routes/), the gate (gate.ts: key, limits, parameters) before every keyed route, answers and
 * errors in one place (http/reply.ts), and the lifecycle (http/server.ts). No framework: a request
 * is a handful of function calls on the response object Node makes anyway (README, Dependencies).
 *
 * Whatever spelling of a path is matched (`/%61pi/v1/duty`, an absolute-form target, HEAD), it
 * reaches a handler only through the gate. A path nothing matches is a JSON 404, or a 405 naming
 * the methods the path has.
 */
import type { IncomingMessage } from 'node:http';
import pino from 'pino';
import type { Tariff } from '../shared/index.js';
import type { KeyStore } from './auth/key-store.js';
import type { RateLimiter } from './auth/rate-limit.js';
import type { ExportersTable } from './data/exporters.js';
import { createGate } from './gate.js';
import { cors } from './http/cors.js';
import { clientIp, decodePath, type Exchange, readHeaders, splitTarget } from './http/exchange.js';
import { parseQuery } from './http/query.js';
import { Replies } from './http/reply.js';
import { router } from './http/router.js';
import { httpServer } from './http/server.js';
import { createLog, redactKey, requestLogger, type Logger } from './log.js';
import { addinRoutes } from './routes/addins.js';
import { dutyRoutes } from './routes/duty.js';
import { exportersRoute } from './routes/exporters.js';
import { healthRoute } from './routes/health.js';
import { htsRoute } from './routes/hts.js';
import { openapiRoute } from './routes/openapi.js';
import { refundRoutes } from './routes/refunds.js';
import type { Route } from './routes/route.js';
import { searchRoutes } from './routes/search.js';

export { redactKey };

export interface AppDeps {
  tariff: Tariff;
  exporters: ExportersTable;
  keys: KeyStore;
  /** Per key, on every /api/v1 endpoint. */
  keyLimiter: RateLimiter;
  /** Per client address: lookups of keys this instance does not know, and (apart) the public document. */
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

export function buildApp(deps: AppDeps): App {
  const log = deps.logger ? createLog(deps.logger.level ?? 'info', deps.logger.stream) : pino({ enabled: false });
  const logRequest = deps.logger ? requestLogger(log) : null;
  /** The request's one line once its answer is handed to the kernel (at once when end() could hand it all); the URL without keys. */
  function logLine(this: Exchange): void {
    const req = this.req;
    logRequest!({ method: req.method!, url: redactKey(req.url!), statusCode: this.statusCode, responseTime: performance.now() - this.started, ip: this.ip });
  }
  const replies = new Replies(log, logRequest === null ? () => {} : (res) => (res.writableLength === 0 ? logLine.call(res) : res.once('finish', logLine)));
  const gate = createGate(deps);
  const trustedProxies = deps.trustedProxies ?? 0;
  const corsOrigins = deps.corsOrigins?.length ? new Set(deps.corsOrigins) : null;

  const route = router([
    healthRoute(deps),
    openapiRoute,
    ...dutyRoutes(deps.tariff),
    ...searchRoutes(deps.tariff),
    htsRoute(deps.tariff),
    exportersRoute(deps.exporters),
    ...refundRoutes(),
    ...addinRoutes(deps.staticRoot),
  ]);

  function handle(req: IncomingMessage, res: Exchange): void {
    res.ip = clientIp(req, trustedProxies);
    try {
      if (corsOrigins !== null && cors(corsOrigins, req, res)) return replies.empty(res, 204);
      if (replies.closing) {
        res.header('Retry-After', 5);
        return replies.error(res, 'service_unavailable', 'The service is shutting down; retry shortly');
      }
      splitTarget(res, req.url!);
      const path = decodePath(res.rawPath);
      if (path === null) return replies.error(res, 'invalid_parameter', 'The path is not valid percent-encoding (a % must be followed by two hexadecimal digits)', { parameter: 'path' });
      res.path = path;
      const matched = route(path);
      const problem = readHeaders(res);
      if (problem) return replies.error(res, 'invalid_parameter', problem, { parameter: 'Host' });
      if (matched === null) return replies.notFound(res);
      const method = req.method!;
      if (!matched.methods.includes(method)) return wrongMethod(res, method, matched.methods);
      res.route = matched;
      if (matched.gate !== 'none') res.query = parseQuery(res.queryString);
      void serve(res, matched);
    } catch (e) {
      replies.fail(res, e);
    }
  }

  /** The gate, then the handler; whatever either throws is answered in the API's shape. */
  async function serve(res: Exchange, matched: Route): Promise<void> {
    try {
      if (matched.gate !== 'none') await gate(res, matched);
      // Most answers are ready at once (a query for today): answered in this turn, not the next.
      const answer = matched.run(res);
      replies.answer(res, answer instanceof Promise ? await answer : answer);
    } catch (e) {
      replies.fail(res, e);
    }
  }

  /** OPTIONS: 204 naming the path's methods (without CORS configured, that is all it says); any other method: 405. */
  function wrongMethod(res: Exchange, method: string, methods: readonly string[]): void {
    res.header('Allow', [...methods, 'OPTIONS'].join(', '));
    if (method === 'OPTIONS') return replies.empty(res, 204);
    replies.error(res, 'method_not_allowed', `${method} is not allowed on ${redactKey(res.rawPath).slice(0, 100)}; use ${methods.join(' or ')}`, { allow: methods });
  }

  const server = httpServer({ https: deps.https, timeoutMs: (deps.requestTimeoutSeconds ?? 30) * 1000, log }, handle);
  return {
    log,
    listen: server.listen,
    close() {
      replies.closing = true;
      return server.close();
    },
  };
}
