/** The request log line and the log's writing on standard output (server/log.ts). */
import { spawn } from 'node:child_process';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../server/data/paths.js';
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

/** The child's stdout lines once `done` says so (the child killed then if still up), and how it ended. */
function logChild(env: Record<string, string>, done: (lines: string[]) => boolean): Promise<{ lines: string[]; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/server/fixtures/log-child.ts'], { cwd: projectRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    const lines = () => text.split('\n').filter(Boolean);
    child.stdout.on('data', (chunk) => {
      text += chunk;
      if (done(lines())) child.kill();
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ lines: lines(), code }));
  });
}

describe('the log on standard output (written 4 kB at a time)', () => {
  it('writes a line within moments though no more follow and the process stays up', async () => {
    const { lines } = await logChild({ LINES: '1', END: 'wait' }, (l) => l.length >= 1);
    expect(JSON.parse(lines[0])).toMatchObject({ url: '/api/v1/duty?n=0', msg: 'request completed' });
  });

  it('writes every line before the process exits, on process.exit as after a crash', async () => {
    for (const end of ['exit', 'crash']) {
      const { lines, code } = await logChild({ LINES: '1000', END: end }, () => false);
      expect(code).toBe(end === 'exit' ? 0 : 1);
      expect(lines).toHaveLength(1000);
      expect(lines.map((l) => JSON.parse(l).url)).toEqual(Array.from({ length: 1000 }, (_, i) => `/api/v1/duty?n=${i}`));
    }
  });

  it('lets the process exit when its reader has gone (a closed pipe), the lines left unwritten', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/server/fixtures/log-child.ts'], { cwd: projectRoot, env: { ...process.env, LINES: '10', END: 'term' }, stdio: ['ignore', 'pipe', 'ignore'] });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    // Its first lines arrive (the 50 ms flush), then the reader goes and the child logs ten lines more and exits.
    await new Promise((resolve) => child.stdout.once('data', resolve));
    child.stdout.destroy();
    child.kill('SIGTERM');
    const guard = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const code = await exited;
    clearTimeout(guard);
    expect(code).toBe(0);
  });
});
