/** The request log line and how standard output gathers lines (server/log.ts). */
import { PassThrough, Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { gathered, milliseconds, requestLogger, type RequestDone } from '../../server/log.js';

describe('the request line', () => {
  it('writes responseTime to the microsecond, as JSON.stringify writes the rounded value', () => {
    for (let us = 0; us < 2_000_000; us += 13) {
      const ms = us / 1000 + 0.0004;
      expect(milliseconds(ms)).toBe(JSON.stringify(Math.round(ms * 1000) / 1000));
    }
    expect(milliseconds(0.3567)).toBe('0.357');
    expect(milliseconds(12.4)).toBe('12.4');
    expect(milliseconds(3)).toBe('3');
    expect(milliseconds(1.05)).toBe('1.05');
    expect(milliseconds(999.9996)).toBe('1000');
  });

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

  it('is the bytes of JSON.stringify of pino’s fields, gathered for standard output or written to a caller’s stream, whatever its strings hold', async () => {
    const chunks: Buffer[] = [];
    const stdout = new Writable({ write: (chunk: Buffer, _e, cb) => (chunks.push(Buffer.from(chunk)), cb()) });
    const lines: string[] = [];
    // A sink, as standard output is (it copies what it is given before calling back): lines are handed over without a copy.
    const viaGathered = requestLogger(pino({ level: 'info' }, gathered(stdout, true)))!;
    const viaStream = requestLogger(pino({ level: 'info' }, { write: (line: string) => lines.push(line) } as never))!;
    const urls = ['/api/v1/duty?hts=6109.10.00&value=1000&origin=china', '/a"b\\c?d=caf\u00e9&e=\u0001\u001f\ud800\u{1f600}', '/x', `/${'é'.repeat(20_000)}`, '', '/p\\q'];
    const times = [0, 0.0004, 0.3567, 1.05, 12.4, 999.9996, 3e9 + 0.25];
    const done: RequestDone[] = [];
    for (let i = 0; i < 1200; i++) done.push({ method: i % 7 ? 'GET' : 'P\u00d6ST', url: urls[i % urls.length], statusCode: [200, 404, 429, 503][i % 4], responseTime: times[i % times.length], ip: i % 3 ? '127.0.0.1' : '::ffff:10.0.0.1' });
    for (const d of done) viaGathered(d), viaStream(d);
    await new Promise((r) => setTimeout(r, 120));
    const gatheredLines = Buffer.concat(chunks).toString('utf8').split('\n').slice(0, -1).map((l) => `${l}\n`);
    const host = (await import('node:os')).hostname();
    const expected = (line: string, d: RequestDone) => {
      const time = JSON.parse(line).time;
      return `${JSON.stringify({ level: 30, time, pid: process.pid, hostname: host, ...d, responseTime: Math.round(d.responseTime * 1000) / 1000, msg: 'request completed' })}\n`;
    };
    expect(gatheredLines).toHaveLength(done.length);
    expect(lines).toHaveLength(done.length);
    expect(gatheredLines.filter((l, i) => l !== expected(l, done[i]))).toEqual([]);
    expect(lines.filter((l, i) => l !== expected(l, done[i]))).toEqual([]);
  });

  it('is not written when info lines are off', () => {
    expect(requestLogger(pino({ level: 'warn' }))).toBeNull();
  });
});

describe('lines gathered for standard output', () => {
  const target = () => {
    const chunks: Buffer[] = [];
    return { chunks, stream: new Writable({ write: (chunk: Buffer, _e, cb) => (chunks.push(Buffer.from(chunk)), cb()) }) };
  };

  it('writes the lines of 50 ms in one call, byte for byte', async () => {
    const { chunks, stream } = target();
    const out = gathered(stream);
    out.write('{"a":"caf\u00e9"}\n');
    out.write('{"b":2}\n');
    expect(chunks).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 120));
    expect(chunks).toHaveLength(1);
    expect(chunks[0].toString('utf8')).toBe('{"a":"caf\u00e9"}\n{"b":2}\n');
  });

  it('gives a stream that passes chunks on (not standard output) copies, so the lines it still holds are not overwritten', async () => {
    const through = new PassThrough();
    const out = gathered(through);
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 3; i++) out.write(`{"level":30,"round":${round},"i":${i}}\n`);
      out.write(`{"level":40,"round":${round}}\n`);
      // The stream calls back between rounds: a buffer it still holds would be written into again.
      await new Promise((r) => setImmediate(r));
    }
    through.end();
    const text = Buffer.concat(await through.toArray()).toString();
    const expected = [0, 1, 2, 3, 4].map((round) => `${[0, 1, 2].map((i) => `{"level":30,"round":${round},"i":${i}}\n`).join('')}{"level":40,"round":${round}}\n`).join('');
    expect(text).toBe(expected);
  });

  it('writes a warning or an error at once, with the lines gathered before it', () => {
    const { chunks, stream } = target();
    const out = gathered(stream);
    out.write('{"level":30,"msg":"a"}\n');
    expect(chunks).toHaveLength(0);
    out.write('{"level":50,"msg":"b"}\n');
    expect(chunks.map(String)).toEqual(['{"level":30,"msg":"a"}\n{"level":50,"msg":"b"}\n']);
  });

  it('writes at once when 64 KB are gathered, and a line longer than that whole', async () => {
    const { chunks, stream } = target();
    const out = gathered(stream);
    const line = `${'x'.repeat(999)}\n`;
    // Room is kept for 3 bytes a character: the 64th line of 1,000 bytes would not fit after 63.
    for (let i = 0; i < 70; i++) out.write(line);
    expect(chunks.map((c) => c.length)).toEqual([63_000]);
    const long = `${'y'.repeat(70_000)}\n`;
    out.write(long);
    expect(chunks.map((c) => c.length)).toEqual([63_000, 7_000, long.length]);
    await new Promise((r) => setTimeout(r, 120));
    expect(Buffer.concat(chunks).toString()).toBe(line.repeat(70) + long);
  });
});
