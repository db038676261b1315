/** The request log line (server/log.ts). */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { requestLogger } from '../../server/log.js';

describe('the request line', () => {
  it('is one JSON line with pino’s level, time, pid and hostname, and strings escaped where needed', () => {
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(line) } as never);
    const write = requestLogger(log)!;
    const url = '/api/v1/hts/"6109\\10"?q=caf\u00e9';
    const before = Date.now();
    write({ method: 'GET', url, statusCode: 404, responseTime: 1.23456, ip: '::ffff:127.0.0.1' });
    write({ method: 'POST', url: '/api/v1/duty/bulk', statusCode: 200, responseTime: 0.5, ip: '10.0.0.1' });
    expect(lines).toHaveLength(2);
    expect(lines.every((l) => l.endsWith('}\n') && !l.slice(0, -1).includes('\n'))).toBe(true);
    const first = JSON.parse(lines[0]);
    expect(first).toMatchObject({ level: 30, pid: process.pid, method: 'GET', url, statusCode: 404, responseTime: 1.235, ip: '::ffff:127.0.0.1', msg: 'request completed' });
    expect(first.time).toBeGreaterThanOrEqual(before);
    expect(typeof first.hostname).toBe('string');
    expect(JSON.parse(lines[1])).toMatchObject({ method: 'POST', url: '/api/v1/duty/bulk', responseTime: 0.5, ip: '10.0.0.1' });
  });

  it('is not written when info lines are off', () => {
    expect(requestLogger(pino({ level: 'warn' }))).toBeNull();
  });
});
