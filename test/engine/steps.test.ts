/** Steps run by several callers at once (shared/steps.ts): the work done once, its value or its error for each. */
import { describe, expect, it } from 'vitest';
import { finish, joined, type Run } from '../../shared/steps.js';

/** Three steps, counting how often it was started. */
function counted(counter: { starts: number }, fail = false) {
  return function* (): Generator<void, string> {
    counter.starts++;
    yield;
    yield;
    if (fail) throw new Error('the build failed');
    return 'built';
  };
}

describe('joined steps', () => {
  it('two callers advancing the same key alternately start it once and both get its value; then the run is gone', () => {
    const runs = new Map<string, Run<string>>();
    const c = { starts: 0 };
    const a = joined(runs, 'k', counted(c));
    const b = joined(runs, 'k', counted(c));
    let ra = a.next();
    let rb = b.next();
    while (!ra.done || !rb.done) {
      if (!ra.done) ra = a.next();
      if (!rb.done) rb = b.next();
    }
    expect([ra.value, rb.value, c.starts, runs.size]).toEqual(['built', 'built', 1, 0]);
    // Asked again once it has ended: a new run.
    expect(finish(joined(runs, 'k', counted(c)))).toBe('built');
    expect(c.starts).toBe(2);
  });

  it('another key is a run of its own; an error reaches every caller of the run', () => {
    const runs = new Map<string, Run<string>>();
    const c = { starts: 0 };
    const a = joined(runs, 'bad', counted(c, true));
    const b = joined(runs, 'bad', counted(c, true));
    const other = joined(runs, 'good', counted(c));
    a.next();
    b.next();
    other.next();
    expect(c.starts).toBe(2);
    expect(() => finish(a)).toThrow('the build failed');
    expect(() => finish(b)).toThrow('the build failed');
    expect(finish(other)).toBe('built');
    expect(runs.size).toBe(0);
  });
});
