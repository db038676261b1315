/** The built server as a process: start-up with the embedded defaults, and SIGTERM finishing what is in flight. */
import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../server/auth/rate-limit.js';
import { startServer, startServerProcess, type RunningServer } from '../helpers/server.js';

describe('server process', () => {
  it('SIGTERM lets an in-flight request finish, then exits 0', async () => {
    const srv = await startServerProcess();
    const body = JSON.stringify({ items: Array.from({ length: 500 }, () => ({ hts: '6109.10.00', value: 100, origin: 'china' })) });
    const { hostname, port } = new URL(srv.url);
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ hostname, port, method: 'POST', path: '/api/v1/duty/bulk', headers: { authorization: `Bearer ${srv.key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      });
      req.on('error', reject);
      // Half the body now; SIGTERM; the rest after: the request is in flight during shutdown.
      req.write(body.slice(0, body.length / 2));
      setTimeout(() => {
        process.kill(srv.pid, 'SIGTERM');
        setTimeout(() => req.end(body.slice(body.length / 2)), 200);
      }, 200);
    });
    const res = await response;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).totals.lines).toBe(500);
    expect(await srv.exited).toBe(0);
    await srv.close();
    expect(srv.logs.join('\n')).toMatch(/shutting down/);
  });
});

describe('closing the service', () => {
  it('closes connections that never sent a whole request (a preconnection, half a request line) instead of waiting for their clients', async () => {
    const srv = await startServer();
    const { port } = new URL(srv.url);
    // A request answered on a kept-alive connection, then two connections with nothing whole on them.
    const kept = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => {
      kept.on('data', (d) => String(d).includes('"hts_revision"') && resolve());
      kept.write(`GET /api/v1/hts/6109.10.00 HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${srv.key}\r\n\r\n`);
    });
    const silent = connect(Number(port), '127.0.0.1');
    const half = connect(Number(port), '127.0.0.1');
    await Promise.all([silent, half].map((s) => new Promise((r) => s.once('connect', r))));
    half.write('GET /api/v1/duty?hts=6109.10.00');
    // Destroyed with bytes unread, a connection may be reset rather than ended: either way it is closed.
    const closedBy = (s: ReturnType<typeof connect>) => new Promise<boolean>((r) => s.on('error', () => {}).once('close', () => r(true)));
    const sockets = [kept, silent, half].map(closedBy);
    // close() resolves (vitest's time-out would fail the test otherwise) and every connection is closed by the server.
    await srv.close();
    expect(await Promise.all(sockets)).toEqual([true, true, true]);
  });

  it('says Connection: close on the answer of a request in flight when close() began, and lets the connection close', async () => {
    // The second of two requests on one kept-alive connection starts the close while it is being answered.
    const inner = new MemoryRateLimiter(120);
    let hits = 0;
    let srv: RunningServer | undefined;
    let closed: Promise<void> | undefined;
    const keyLimiter = {
      hit(id: string, now?: number) {
        if (++hits === 2) closed = srv!.close();
        return inner.hit(id, now);
      },
      peek: (id: string, now?: number) => inner.peek(id, now),
    };
    srv = await startServer({ keyLimiter });
    const { port } = new URL(srv.url);
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    const get = `GET /api/v1/duty?hts=6109.10.00&value=1000&origin=china HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${srv.key}\r\n\r\n`;
    socket.on('data', (d) => {
      text += d;
      // The first answer is in (its body ends the JSON): the second request.
      if (hits === 1 && text.endsWith('}')) socket.write(get);
    });
    const ended = new Promise((r) => socket.once('close', r));
    socket.write(get);
    await ended;
    expect(hits).toBe(2);
    const heads = text.match(/HTTP\/1\.1 [\s\S]*?\r\n\r\n/g)!;
    expect(heads.map((h) => h.slice(0, 15))).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK']);
    expect(heads[1]).toMatch(/\r\nConnection: close(\r\n|$)/i);
    await closed;
  });
});

