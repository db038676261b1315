/**
 * node:http (node:https with a certificate) as the service needs it: time-outs enforced on time,
 * every header line kept, requests Node refuses before routing answered in the API's error shape,
 * and a close that finishes the answers in flight.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { STATUS, type ErrorCode } from '../errors.js';
import { errorJson } from '../serialize.js';
import { Exchange, rawAnswer } from './exchange.js';
import { JSON_HEADERS } from './reply.js';

// Not `import ... from 'node:http'`: an ES import makes Node build the module's ES facade, which reads
// every export, and its WebSocket getter loads undici: about 45 ms of every start here (docs/performance.md).
const { createServer } = process.getBuiltinModule('node:http');

export interface HttpServer {
  listen(at: { port: number; host: string }): Promise<string>;
  close(): Promise<void>;
}

export function httpServer(options: { https?: { cert: Buffer; key: Buffer }; timeoutMs: number; log: Logger }, handle: (req: IncomingMessage, res: Exchange) => void): HttpServer {
  const { https, timeoutMs: timeout, log } = options;
  /** Each connection's latest request's answer (weakly: nothing is kept once the connection goes). */
  const latest = new WeakMap<Duplex, Exchange>();
  const serverOptions = {
    ServerResponse: Exchange,
    // A request without Host is answered by the app in the API's error shape, not with Node's empty 400.
    requireHostHeader: false,
    requestTimeout: timeout,
    headersTimeout: Math.min(timeout, 10_000),
    // Node enforces the two time-outs only when it checks its connections (every 30 s by default):
    // check at least every second, so a slow sender is cut off on time.
    connectionsCheckingInterval: Math.min(timeout, 1000),
  };
  const onRequest = (req: IncomingMessage, res: Exchange) => {
    latest.set(req.socket, res);
    handle(req, res);
  };
  // node:https (and TLS) loaded only when asked for: a few milliseconds of every other start.
  const server: Server<typeof IncomingMessage, typeof Exchange> = https
    ? process.getBuiltinModule('node:https').createServer({ ...https, ...serverOptions }, onRequest as never)
    : createServer(serverOptions, onRequest as never);
  // Longer than the 60 s idle time-out of common load balancers, so they never reuse a connection this side has just closed.
  server.keepAliveTimeout = 72_000;
  // Every header line is kept (Node keeps 2,000 by default and drops the rest unseen), so a second
  // Host far down is still caught; the 16 KB limit on the head bounds how many there can be.
  server.maxHeadersCount = 0;

  /**
   * Requests Node refuses before any route sees them (a request line or headers that are not valid
   * HTTP, such as raw control characters or non-ASCII bytes in the URL; headers over 16 KB; a request
   * not received in time): answered in the API's error shape, naming the problem; then the
   * connection closes. The raw request is never logged (it may hold a key).
   */
  server.on('clientError', (err: NodeJS.ErrnoException & { reason?: string }, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    // The error is in what followed a request already answered (a body sent after an early 401 or
    // 413, malformed or too slow): a second answer to one request would confuse the client, so the
    // connection just closes.
    const res = latest.get(socket);
    if (res !== undefined && res.headersSent && (!res.writableFinished || !res.req.complete)) return void socket.destroy();
    const [code, message, details]: [ErrorCode, string, Record<string, unknown>?] =
      err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ['request_timeout', `The request was not received in full within ${timeout / 1000} s`, { timeout_seconds: timeout / 1000 }]
        : err.code === 'HPE_HEADER_OVERFLOW'
          ? ['headers_too_large', 'The request line and headers exceed 16 KB', { max_bytes: 16 * 1024 }]
          : ['invalid_parameter', `The request is not valid HTTP (${err.reason ?? err.code}): control characters and bytes outside ASCII in the URL must be percent-encoded`];
    log.info({ statusCode: STATUS[code], error: err.code }, 'request refused before routing');
    if (socket.writable) socket.write(rawAnswer(STATUS[code], JSON_HEADERS, errorJson(code, message, details)));
    socket.destroy();
  });

  // Every open connection, for close(): see there.
  const sockets = new Set<Socket>();
  server.on(https ? 'secureConnection' : 'connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  /** Whether the connection's latest answer is still being made or sent. */
  const answering = (socket: Duplex): boolean => {
    const res = latest.get(socket);
    return res !== undefined && !res.writableFinished;
  };

  return {
    listen: ({ port, host }) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const a = server.address() as AddressInfo;
          const url = `${https ? 'https' : 'http'}://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
          log.info(`Server listening at ${url}`);
          resolve(url);
        });
      }),
    close() {
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
