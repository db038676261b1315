/**
 * An answer's head written by the service (Exchange.writeOwnHead) is the head Node's writeHead
 * writes for the same headers, byte for byte, in every state of the connection: kept alive, closed
 * by the service, closing at the client's request, HTTP/1.0, a server without a keep-alive time-out or with a request
 * limit per connection, a HEAD request, a client expecting 100-continue.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Exchange } from '../../server/http/exchange.js';

const BODY = '{"ok":true}';
const HEADERS = ['Content-Length', BODY.length, 'Content-Type', 'application/json; charset=utf-8', 'X-Content-Type-Options', 'nosniff', 'Cache-Control', 'no-store', 'X-RateLimit-Limit', 120, 'X-RateLimit-Remaining', 119, 'X-RateLimit-Reset', 42];
const LINES = HEADERS.map((x, i) => (i % 2 ? `${x}\r\n` : `${x}: `)).join('');

type ExchangeServer = Server<typeof IncomingMessage, typeof Exchange>;
let server: ExchangeServer | null = null;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = null;
});

/**
 * A server whose /own answers through writeOwnHead and /node through Node's writeHead, same headers
 * and body; /own-close and /node-close close the connection after the answer.
 */
async function start(setup: (s: ExchangeServer) => void = () => {}): Promise<number> {
  const s = createServer({ ServerResponse: Exchange }, (req: IncomingMessage, res) => {
    const r = res as Exchange;
    req.resume();
    const close = req.url!.endsWith('-close');
    if (req.url!.startsWith('/own')) r.writeOwnHead(201, LINES, close);
    else r.writeHead(201, close ? [...HEADERS, 'Connection', 'close'] : HEADERS);
    r.end(BODY);
  });
  setup(s);
  server = s;
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as { port: number }).port;
}

/** Sends `text` on one connection and returns everything the server wrote until it closed (or `ms` passed). */
function exchange(port: number, text: string, ms = 400): Promise<{ received: string; closedByServer: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ received, closedByServer: false });
    }, ms);
    socket.on('data', (d) => (received += d));
    socket.on('error', reject);
    socket.on('end', () => {
      clearTimeout(timer);
      resolve({ received, closedByServer: true });
    });
    socket.write(text);
  });
}

/** The same exchange on /own and on /node, the Date lines made equal (they may fall in different seconds). */
async function both(port: number, request: (path: string) => string, close = '') {
  const own = await exchange(port, request(`/own${close}`));
  const node = await exchange(port, request(`/node${close}`));
  const sameDate = (t: string) => t.replace(/\r\nDate: [^\r]+\r\n/g, '\r\nDate: -\r\n');
  return { own: { ...own, received: sameDate(own.received) }, node: { ...node, received: sameDate(node.received) } };
}

const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: x\r\n${extra}\r\n`;

describe("the service's own head of an answer", () => {
  it('is Node\'s, byte for byte, on a kept-alive connection: Date, Connection: keep-alive and Keep-Alive after the headers; the connection stays open for the next request', async () => {
    const port = await start();
    const { own, node } = await both(port, (p) => get(p) + get(p));
    expect(own.received).toBe(node.received);
    expect(own.received.split('HTTP/1.1 201 Created\r\n')).toHaveLength(3);
    expect(own.received).toContain(`X-RateLimit-Reset: 42\r\nDate: -\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n${BODY}`);
    expect(own.closedByServer).toBe(false);
  });

  it("is Node's for an answer that closes its connection (the service closing): Connection: close after the lines, and the connection closes after the first answer", async () => {
    const port = await start();
    const { own, node } = await both(port, (p) => get(p) + get(p), '-close');
    expect(own.received).toBe(node.received);
    expect(own.received).toContain('X-RateLimit-Reset: 42\r\nConnection: close\r\nDate: -\r\n\r\n');
    expect(own.received.split('HTTP/1.1 201 Created\r\n')).toHaveLength(2);
    expect(own.closedByServer).toBe(true);
  });

  it("is Node's when the client asks to close, and for HTTP/1.0: Connection: close, and the connection closes", async () => {
    const port = await start();
    const closing = await both(port, (p) => get(p, 'Connection: close\r\n'));
    expect(closing.own.received).toBe(closing.node.received);
    expect(closing.own.received).toContain('\r\nConnection: close\r\n');
    expect(closing.own.closedByServer).toBe(true);
    const old = await both(port, (p) => `GET ${p} HTTP/1.0\r\n\r\n`);
    expect(old.own.received).toBe(old.node.received);
    expect(old.own.received).toMatch(/^HTTP\/1\.1 201 Created\r\n/);
    expect(old.own.closedByServer).toBe(true);
  });

  it("is Node's on a server with no keep-alive time-out (no Keep-Alive line) and on one with a request limit per connection", async () => {
    let port = await start((s) => (s.keepAliveTimeout = 0));
    let r = await both(port, (p) => get(p));
    expect(r.own.received).toBe(r.node.received);
    expect(r.own.received).toContain('\r\nConnection: keep-alive\r\n\r\n');
    server!.close();
    port = await start((s) => (s.maxRequestsPerSocket = 2));
    r = await both(port, (p) => get(p) + get(p));
    expect(r.own.received).toBe(r.node.received);
    expect(r.own.received).toContain('Keep-Alive: timeout=5, max=2\r\n');
    expect(r.own.received).toContain('\r\nConnection: close\r\n');
  });

  it("is Node's for HEAD (no body follows) and for a client expecting 100-continue", async () => {
    const port = await start();
    const head = await both(port, (p) => `HEAD ${p} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(head.own.received).toBe(head.node.received);
    expect(head.own.received.endsWith('\r\n\r\n')).toBe(true);
    const expectContinue = await both(port, (p) => `POST ${p} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n{}`);
    expect(expectContinue.own.received).toBe(expectContinue.node.received);
    expect(expectContinue.own.received).toContain('HTTP/1.1 201 Created');
  });

  it('names a status Node has no reason phrase for as Node does', async () => {
    const s = createServer({ ServerResponse: Exchange }, (req, res) => {
      req.resume();
      if (req.url === '/own') (res as Exchange).writeOwnHead(599, 'Content-Length: 0\r\n', false);
      else res.writeHead(599, ['Content-Length', 0]);
      res.end();
    });
    server = s;
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const { own, node } = await both((s.address() as { port: number }).port, (p) => get(p));
    expect(own.received).toBe(node.received);
    expect(own.received).toMatch(/^HTTP\/1\.1 599 unknown\r\n/);
  });
});
