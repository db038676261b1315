/**
 * One request and its answer. Node builds a response object per request anyway; this subclass of
 * it (createServer's ServerResponse option) also carries what the request's steps learn (the path,
 * the query, the rate-limit decision, headers to add), so a request allocates no context object
 * and no closure on the way through the gate.
 */
import { ServerResponse, STATUS_CODES, type IncomingMessage } from 'node:http';
import type { RateDecision } from '../auth/rate-limit.js';
import type { Query } from './query.js';

/** What the gate needs of the route a request matched: the query parameters it takes, and its handler. */
export interface Handler {
  params: readonly string[];
  run(res: Exchange): void;
}

export class Exchange extends ServerResponse<IncomingMessage> {
  /** When the request arrived (performance.now()), for the log line's responseTime. */
  readonly started = performance.now();
  /** The path, percent-decoded as a router reads it (reserved characters such as %2F stay encoded). */
  path = '';
  /** The path as sent (absolute-form authority removed), for path parameters. */
  rawPath = '';
  /** Everything after `?`, undecoded. */
  queryString = '';
  query: Query | null = null;
  route: Handler | null = null;
  /** Whose limit the answer reports: its X-RateLimit-* headers go on every answer after the gate. */
  limit: RateDecision | null = null;
  /** Headers for the answer besides the common ones: name, value, name, value... */
  extra: (string | number)[] | null = null;
  /** The request's Authorization header (read by readHeaders). */
  authorization: string | undefined = undefined;
  /** Whether the request presented a key (so a refusal can say "invalid" rather than "missing"). */
  keyGiven = false;
  /** The answer's body once the request is answered: queued until the turn's answers are sent (hand-over.ts). */
  body: string | Buffer | null = null;

  header(name: string, value: string | number): void {
    (this.extra ??= []).push(name, value);
  }

  /**
   * The answer's head: its status, Content-Length and header `lines` (each `Name: value\r\n`, names
   * and values the service's own: its constants, numbers, and origins it was configured with), the
   * bytes Node's writeHead writes (those headers, then Date, Connection and Keep-Alive), made as one
   * string. Node checks each name and value against HTTP's grammar and lower-cases each name to find
   * the ones it manages: about 1.4 µs of an API answer's 19 (README, Performance). Anything else
   * Node's writeHead decides goes through it: an answer that closes its connection (`close`, the
   * client's Connection: close, a limit of requests per connection), a client still waiting for
   * 100 Continue, an answer without Date or with a reason phrase of its own (or a head already
   * written: its statusMessage is set, and Node's writeHead throws). Headers set with setHeader are
   * not written: the API's answers have none.
   */
  writeOwnHead(status: number, contentLength: number, lines: string, close: boolean): void {
    const node = this as unknown as NodeResponse;
    if (close || !this.shouldKeepAlive || node._maxRequestsPerSocket > 0 || !node._defaultKeepAlive || node._expect_continue || !this.sendDate || this.statusMessage) {
      const headers: (string | number)[] = ['Content-Length', contentLength, ...headerPairs(lines)];
      if (close) headers.push('Connection', 'close');
      this.writeHead(status, headers);
      return;
    }
    // What Node's writeHead and _storeHeader set besides the head (lib/_http_server.js, lib/_http_outgoing.js).
    this.statusCode = status;
    this.statusMessage = STATUS_CODES[status] ?? 'unknown';
    node._contentLength = contentLength;
    if (status === 204 || status === 304 || (status >= 100 && status <= 199)) node._hasBody = false;
    node._header = `${STATUS_LINES[status] ?? statusLine(status)}Content-Length: ${contentLength}\r\n${lines}${dateLine()}${keepAliveLines(node._keepAliveTimeout)}\r\n`;
    node._headerSent = false;
  }
}

/** Header lines as writeHead's list of names and values. */
function headerPairs(lines: string): string[] {
  const pairs: string[] = [];
  for (let at = 0; at < lines.length; ) {
    const end = lines.indexOf('\r\n', at);
    const colon = lines.indexOf(': ', at);
    pairs.push(lines.slice(at, colon), lines.slice(colon + 2, end));
    at = end + 2;
  }
  return pairs;
}

/** The fields of Node's response that its writeHead reads and sets (lib/_http_outgoing.js, _storeHeader). */
interface NodeResponse {
  _header: string | null;
  _headerSent: boolean;
  _contentLength: number | null;
  _hasBody: boolean;
  _keepAliveTimeout: number;
  _maxRequestsPerSocket: number;
  _defaultKeepAlive: boolean;
  _expect_continue: boolean;
}

const STATUS_LINES: string[] = [];
function statusLine(status: number): string {
  return (STATUS_LINES[status] = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'unknown'}\r\n`);
}

/** Node's Date header: the time to the second, made once a second. */
let dateSecond = -1;
let date = '';
function dateLine(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    date = `Date: ${new Date(now).toUTCString()}\r\n`;
  }
  return date;
}

/** Node's keep-alive lines for the server's keepAliveTimeout (ms); without one it sends Connection only. */
let keepAliveMs = -1;
let keepAlive = '';
function keepAliveLines(ms: number): string {
  if (ms !== keepAliveMs) {
    keepAliveMs = ms;
    keepAlive = ms ? `Connection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(ms / 1000)}\r\n` : 'Connection: keep-alive\r\n';
  }
  return keepAlive;
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

/** A whole HTTP/1.1 answer with header `lines`, for a socket Node gave up parsing (no response object exists): then the connection closes. */
export function rawAnswer(status: number, lines: string, body: string): string {
  return `${STATUS_LINES[status] ?? statusLine(status)}Content-Length: ${Buffer.byteLength(body)}\r\n${lines}Connection: close\r\n\r\n${body}`;
}
