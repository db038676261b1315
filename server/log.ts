/**
 * The service's log: pino's JSON lines. On standard output the lines are gathered and written once
 * per turn of the event loop instead of one write call per line: at thousands of requests a
 * second, the write calls cost more than the lines. A stream given by the caller (tests) is
 * written line by line, so what was logged is there at once.
 */
import pino, { type Logger } from 'pino';

export type { Logger };

export function createLog(level: string, stream?: NodeJS.WritableStream): Logger {
  return pino({ level }, stream ?? linesOncePerTurn(process.stdout));
}

const flushers = new Set<() => void>();
// Whatever is still gathered when the process exits is written then (standard output is
// synchronous for files and pipes on Linux).
process.once('exit', () => flushers.forEach((flush) => flush()));

function linesOncePerTurn(target: NodeJS.WritableStream): { write(line: string): void } {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const chunk = pending.join('');
    pending = [];
    target.write(chunk);
  };
  flushers.add(flush);
  return {
    write(line) {
      pending.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
  };
}
