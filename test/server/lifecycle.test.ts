/** The built server as a process: start-up with the embedded defaults, and SIGTERM finishing what is in flight. */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startServerProcess } from '../helpers/server.js';

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
