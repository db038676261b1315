/**
 * An answer's head written by the service (Exchange.writeOwnHead) is the head Node's writeHead
 * writes for the same headers, byte for byte, in every state of the connection: kept alive, closed
 * by the service, closing at the client's request, HTTP/1.0 with and without keep-alive, a server
 * with another keep-alive time-out, none, or a request limit per connection, HEAD, 204, a client
 * expecting 100-continue, an answer without Date.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Exchange } from '../../server/http/exchange.js';

const BODY = '{"ok":true}';
const LINES = 'Content-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nX-RateLimit-Limit: 120\r\nX-RateLimit-Remaining: 119\r\nX-RateLimit-Reset: 42\r\n';
const HEADERS = ['Content-Type', 'application/json; charset=utf-8', 'X-Content-Type-Options', 'nosniff', 'Cache-Control', 'no-store', 'X-RateLimit-Limit', 120, 'X-RateLimit-Remaining', 119, 'X-RateLimit-Reset', 42];

type ExchangeServer = Server<typeof IncomingMessage, typeof Exchange>;
let servers: ExchangeServer[] = [];
afterEach(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
  servers = [];
});

/**
 * A server whose /own… paths answer through writeOwnHead and /node… paths through Node's
 * writeHead, with the same headers; `-close` closes the connection after the answer, `-204` answers
 * 204 without a body, `-nodate` turns Date off, `-reason` gives a reason phrase of its own.
 */
async function start(setup: (s: ExchangeServer) => void = () => {}): Promise<number> {
  const s = createServer({ ServerResponse: Exchange }, (req: IncomingMessage, res) => {
    const r = res as Exchange;
    req.resume();
    const url = req.url!;
    const close = url.includes('-close');
    const status = url.includes('-204') ? 204 : 201;
    const body = status === 204 ? '' : BODY;
    if (url.includes('-nodate')) r.sendDate = false;
    if (url.includes('-reason')) r.statusMessage = 'Made';
    if (url.startsWith('/own')) r.writeOwnHead(status, body.length, LINES, close);
    else r.writeHead(status, ['Content-Length', body.length, ...HEADERS, ...(close ? ['Connection', 'close'] : [])]);
    r.end(body || undefined);
  });
  setup(s);
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as { port: number }).port;
}

/** How many whole answers `text` holds (each head, then its Content-Length of body; HEAD answers have none). */
function answersIn(text: string, head: boolean): number {
  let n = 0;
  for (let at = 0; ; n++) {
    const end = text.indexOf('\r\n\r\n', at);
    if (end < 0) return n;
    const length = head ? 0 : Number(/\r\nContent-Length: (\d+)\r\n/i.exec(text.slice(at, end + 2))?.[1] ?? 0);
    if (text.length < end + 4 + length) return n;
    at = end + 4 + length;
  }
}

/**
 * Sends `text` on one connection; what the server wrote once `answers` whole answers arrived, and
 * whether the server then closed the connection (`close`: waits for it; otherwise it is still open).
 */
function exchange(port: number, text: string, answers: number, close: boolean, head = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let ended = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`${answersIn(received, head)} of ${answers} answers${ended ? ', then closed' : ''} after 5 s: ${JSON.stringify(received)}`));
    }, 5000);
    const check = () => {
      if (answersIn(received, head) < answers || close !== ended) return;
      clearTimeout(timer);
      socket.destroy();
      resolve(received);
    };
    socket.on('data', (d) => {
      received += d;
      check();
    });
    socket.on('end', () => {
      ended = true;
      check();
    });
    socket.on('error', reject);
    socket.write(text);
  });
}

const DATE = /\r\nDate: ([^\r]+)\r\n/g;

/** The same exchange on /own… and on /node…; their Date lines made equal, after checking each is now, as Node writes it. */
async function both(port: number, request: (path: string) => string, answers: number, close: boolean, head = false) {
  const sameDate = (t: string) => {
    for (const [, date] of t.matchAll(DATE)) {
      expect(date).toMatch(/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT$/);
      expect(Math.abs(Date.parse(date) - Date.now())).toBeLessThan(5000);
    }
    return t.replace(DATE, '\r\nDate: -\r\n');
  };
  const own = sameDate(await exchange(port, request('/own'), answers, close, head));
  const node = sameDate(await exchange(port, request('/node'), answers, close, head));
  return { own, node };
}

const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: x\r\n${extra}\r\n`;

describe("the service's own head of an answer", () => {
  it("is Node's, byte for byte, on a kept-alive connection: Date, Connection: keep-alive and Keep-Alive after the headers; the connection stays open for the next request", async () => {
    const port = await start();
    const { own, node } = await both(port, (p) => get(p) + get(p) + get(p), 3, false);
    expect(own).toBe(node);
    expect(own.split('HTTP/1.1 201 Created\r\nContent-Length: 11\r\n')).toHaveLength(4);
    expect(own).toContain(`X-RateLimit-Reset: 42\r\nDate: -\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n${BODY}`);
  });

  it("is Node's for an answer that closes its connection (the service closing): Connection: close after the lines, and the connection closes after the first answer", async () => {
    const port = await start();
    const { own, node } = await both(port, (p) => get(`${p}-close`) + get(`${p}-close`), 1, true);
    expect(own).toBe(node);
    expect(own).toContain('X-RateLimit-Reset: 42\r\nConnection: close\r\nDate: -\r\n\r\n');
    expect(own.split('HTTP/1.1 201 Created\r\n')).toHaveLength(2);
  });

  it("is Node's when the client asks to close, and for HTTP/1.0: Connection: close, and the connection closes; HTTP/1.0 with keep-alive stays open", async () => {
    const port = await start();
    const closing = await both(port, (p) => get(p, 'Connection: close\r\n'), 1, true);
    expect(closing.own).toBe(closing.node);
    expect(closing.own).toContain('\r\nConnection: close\r\n');
    const old = await both(port, (p) => `GET ${p} HTTP/1.0\r\n\r\n`, 1, true);
    expect(old.own).toBe(old.node);
    expect(old.own).toMatch(/^HTTP\/1\.1 201 Created\r\n/);
    const oldKept = await both(port, (p) => `GET ${p} HTTP/1.0\r\nConnection: keep-alive\r\n\r\n`.repeat(2), 2, false);
    expect(oldKept.own).toBe(oldKept.node);
    expect(oldKept.own).toContain('\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n');
  });

  it("is Node's on servers with another keep-alive time-out (whole seconds, rounded down), none (no Keep-Alive line), and a request limit per connection", async () => {
    let port = await start((s) => (s.keepAliveTimeout = 5999));
    let r = await both(port, (p) => get(p), 1, false);
    expect(r.own).toBe(r.node);
    expect(r.own).toContain('\r\nKeep-Alive: timeout=5\r\n');
    port = await start((s) => (s.keepAliveTimeout = 0));
    r = await both(port, (p) => get(p), 1, false);
    expect(r.own).toBe(r.node);
    expect(r.own).toContain('\r\nConnection: keep-alive\r\n\r\n');
    port = await start((s) => (s.maxRequestsPerSocket = 2));
    // Node says Connection: close on the last request a connection may carry, and leaves the closing to the client.
    r = await both(port, (p) => get(p) + get(p), 2, false);
    expect(r.own).toBe(r.node);
    expect(r.own).toContain('Keep-Alive: timeout=5, max=2\r\n');
    expect(r.own).toContain('\r\nConnection: close\r\n');
  });

  it("is Node's for HEAD (no body follows), for 204, for an answer without Date, and for one with a reason phrase of its own", async () => {
    const port = await start();
    const head = await both(port, (p) => `HEAD ${p} HTTP/1.1\r\nHost: x\r\n\r\n`.repeat(2), 2, false, true);
    expect(head.own).toBe(head.node);
    expect(head.own.endsWith('Keep-Alive: timeout=5\r\n\r\n')).toBe(true);
    const empty = await both(port, (p) => get(`${p}-204`) + get(`${p}-204`), 2, false);
    expect(empty.own).toBe(empty.node);
    expect(empty.own).toMatch(/^HTTP\/1\.1 204 No Content\r\nContent-Length: 0\r\n/);
    const undated = await both(port, (p) => get(`${p}-nodate`), 1, false);
    expect(undated.own).toBe(undated.node);
    expect(undated.own).not.toContain('Date:');
    const reason = await both(port, (p) => get(`${p}-reason`), 1, false);
    expect(reason.own).toBe(reason.node);
    expect(reason.own).toMatch(/^HTTP\/1\.1 201 Made\r\n/);
  });

  it("is Node's for a client expecting 100-continue, whether the server sends 100 Continue or answers at once (then the connection closes)", async () => {
    const post = (p: string) => `POST ${p} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n{}`;
    let port = await start();
    const continued = await both(port, post, 2, false);
    expect(continued.own).toBe(continued.node);
    expect(continued.own).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 Created\r\n/);
    // A server with a checkContinue listener that answers without 100 Continue: Node closes the connection.
    port = await start((s) =>
      s.on('checkContinue', (req, res) => {
        req.resume();
        if (req.url!.startsWith('/own')) res.writeOwnHead(201, BODY.length, LINES, false);
        else res.writeHead(201, ['Content-Length', BODY.length, ...HEADERS]);
        res.end(BODY);
      }),
    );
    const refused = await both(port, post, 1, true);
    expect(refused.own).toBe(refused.node);
    expect(refused.own).toContain('\r\nConnection: close\r\n');
  });

  it("names a status Node has no reason phrase for as Node does, and sets the response's fields as Node's writeHead does (a 204 has no body)", async () => {
    const fields: Record<string, unknown>[] = [];
    const s = createServer({ ServerResponse: Exchange }, (req, res) => {
      req.resume();
      const status = req.url!.endsWith('204') ? 204 : 599;
      if (req.url!.startsWith('/own')) res.writeOwnHead(status, 0, '', false);
      else res.writeHead(status, ['Content-Length', 0]);
      const r = res as unknown as Record<string, unknown>;
      fields.push({ statusCode: r.statusCode, statusMessage: r.statusMessage, contentLength: r._contentLength, hasBody: r._hasBody, headersSent: res.headersSent });
      res.end();
    });
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const { own, node } = await both((s.address() as { port: number }).port, (p) => get(p), 1, false);
    expect(own).toBe(node);
    expect(own).toMatch(/^HTTP\/1\.1 599 unknown\r\n/);
    expect(fields[0]).toEqual(fields[1]);
    expect(fields[0]).toEqual({ statusCode: 599, statusMessage: 'unknown', contentLength: 0, hasBody: true, headersSent: true });
    const empty = await both((s.address() as { port: number }).port, (p) => get(`${p}-204`), 1, false);
    expect(empty.own).toBe(empty.node);
    expect(fields[2]).toEqual(fields[3]);
    expect(fields[2]).toEqual({ statusCode: 204, statusMessage: 'No Content', contentLength: 0, hasBody: false, headersSent: true });
  });

  it('is written once: a second head throws as Node does', async () => {
    let thrown: unknown = null;
    const s = createServer({ ServerResponse: Exchange }, (req, res) => {
      req.resume();
      res.writeOwnHead(200, 0, '', false);
      try {
        res.writeOwnHead(200, 0, '', false);
      } catch (e) {
        thrown = e;
      }
      res.end();
    });
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    await exchange((s.address() as { port: number }).port, get('/'), 1, false);
    expect((thrown as NodeJS.ErrnoException)?.code).toBe('ERR_HTTP_HEADERS_SENT');
  });
});
