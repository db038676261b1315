/**
 * One request and its answer. Node builds a response object per request anyway; this subclass of
 * it (createServer's ServerResponse option) also carries what the request's steps learn (the path,
 * the query, the rate-limit decision, headers to add), so a request allocates no context object
 * and no closure on the way through the gate.
 */
import type { IncomingMessage } from 'node:http';
import type { RateDecision } from '../auth/rate-limit.js';
import type { Route } from '../routes/route.js';
import type { Query } from './query.js';

// As server.ts takes node:http: without its ES facade, which would load undici.
const { ServerResponse, STATUS_CODES } = process.getBuiltinModule('node:http');

export class Exchange extends ServerResponse<IncomingMessage> {
  /** When the request arrived (performance.now()), for the log line's responseTime. */
  readonly started = performance.now();
  /** The client's address (behind trusted proxies, the one they vouch for). */
  ip = '';
  /** The path, percent-decoded as a router reads it (reserved characters such as %2F stay encoded). */
  path = '';
  /** The path as sent (absolute-form authority removed), for path parameters. */
  rawPath = '';
  /** Everything after `?`, undecoded. */
  queryString = '';
  query: Query | null = null;
  route: Route | null = null;
  /** The request's JSON body, once the gate has read it (routes that take one). */
  body: unknown = undefined;
  /** Whose limit the answer reports: its X-RateLimit-* headers go on every answer after the gate. */
  limit: RateDecision | null = null;
  /** Headers for the answer besides the common ones: name, value, name, value... */
  extra: (string | number)[] | null = null;
  /** The request's Authorization header (read by readHeaders). */
  authorization: string | undefined = undefined;

  header(name: string, value: string | number): void {
    (this.extra ??= []).push(name, value);
  }
}

/** Where the path ends and the query starts in a request target: origin-form or absolute-form (any scheme case). */
export function splitTarget(res: Exchange, url: string): void {
  let start = 0;
  if (url.charCodeAt(0) !== 47 /* / */) {
    const abs = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url);
    start = abs ? abs[0].length : 0;
  }
  let end = url.indexOf('?', start);
  res.queryString = end < 0 ? '' : url.slice(end + 1);
  if (end < 0) end = url.length;
  const hash = url.indexOf('#', start);
  if (hash >= 0 && hash < end) end = hash;
  res.rawPath = start === end && start > 0 ? '/' : url.slice(start, end);
}

/**
 * The path as the router compares it: percent-decoded except for reserved characters (decodeURI),
 * so `/%61pi/v1/duty` is `/api/v1/duty` but `/api/v1%2fduty` is not. Null for bad percent-encoding.
 */
export function decodePath(raw: string): string | null {
  if (raw.indexOf('%') < 0) return raw;
  try {
    return decodeURI(raw);
  } catch {
    return null;
  }
}

/**
 * One pass over the raw headers for what every request needs: the Authorization header (the first,
 * as Node keeps it) without building the request's header object, and the Host check: why the
 * request is unacceptable, when it has no Host on HTTP/1.1 or more than one (a proxy and this
 * service could disagree on which site was asked).
 */
export function readHeaders(res: Exchange): string | null {
  const raw = res.req.rawHeaders;
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    if (name.length === 4 && name.toLowerCase() === 'host') hosts++;
    else if (name.length === 13 && res.authorization === undefined && name.toLowerCase() === 'authorization') res.authorization = raw[i + 1];
  }
  if (hosts > 1) return 'The request has more than one Host header';
  if (hosts === 0 && res.req.httpVersion !== '1.0') return 'The request has no Host header (HTTP/1.1 requires one)';
  return null;
}

/** A whole HTTP/1.1 answer with `headers` (name, value, ...) for a socket Node gave up parsing (no response object exists): then the connection closes. */
export function rawAnswer(status: number, headers: readonly string[], body: string): string {
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
  for (let i = 0; i < headers.length; i += 2) head += `${headers[i]}: ${headers[i + 1]}\r\n`;
  return `${head}Connection: close\r\n\r\n${body}`;
}

/**
 * The client's address: the peer's, or behind `trustedProxies` proxies that each append the
 * address they were sent from to X-Forwarded-For, the entry the nearest trusted proxy vouches for
 * (the last one for a single proxy). Entries before it are written by the client and never read.
 */
export function clientIp(req: IncomingMessage, trustedProxies: number): string {
  const peer = req.socket.remoteAddress ?? '';
  if (trustedProxies === 0) return peer;
  const xff = req.headers['x-forwarded-for'];
  if (xff === undefined) return peer;
  const hops = (Array.isArray(xff) ? xff.join(',') : xff).split(',').map((a) => a.trim());
  // [the peer, the last entry, the one before...]: the trusted proxies are the first hops of it.
  const chain = [peer, ...hops.reverse()];
  return chain[Math.min(trustedProxies, chain.length - 1)] || peer;
}
