/**
 * The heap setting of a running service (server/heap.ts): with allocation-site pretenuring off, the
 * objects of answered orders die young. With it on, a young collection during an order makes
 * V8 allocate every later result straight into the old generation: about 4 MB of it a dozen
 * orders, which only a full collection gives back. And Node's tick objects keep their maps across
 * full collections once the service has kept one.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { benchOrder, linePools } from '../../bench/lib/lines.js';
import { heapForRequests } from '../../server/heap.js';
import { sharedTariff } from '../helpers/server.js';

const oldSpaceUsed = (): number => getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!.space_used_size;

describe('the heap of a service answering orders', () => {
  it('keeps answered orders out of the old generation', () => {
    const tariff = sharedTariff();
    heapForRequests();
    // As the service receives them: each order parsed anew from its JSON text.
    const text = JSON.stringify({ items: benchOrder(linePools(tariff)), ocean: true });
    const answer = () => tariff.order(JSON.parse(text));
    for (let i = 0; i < 30; i++) answer();
    const before = oldSpaceUsed();
    let lines = 0;
    // The most the old generation held at any point: a full collection in between would hide what reached it.
    let most = 0;
    for (let i = 0; i < 150; i++) {
      lines += answer().lines.length;
      most = Math.max(most, oldSpaceUsed() - before);
    }
    expect(lines).toBe(150_000);
    // 150 orders of 1,000 lines allocate some 225 MB; with pretenuring on, 50-120 MB of it reached the old generation.
    expect(most).toBeLessThan(8 * 1024 * 1024);
  });
});

/**
 * What the fixture prints: the state of each property site of process.nextTick's tick object literal
 * after ticks, a full collection with none alive, and ticks; and V8's "protectors" turned off.
 */
function tickSites(keep: boolean): { sites: string[]; protectorsOff: string[] } {
  const script = fileURLToPath(new URL('./fixtures/tick-maps.ts', import.meta.url));
  // Into a file: V8 prints through C's buffered standard output, and a pipe (under tsx) lost the end of it.
  const dir = mkdtempSync(join(tmpdir(), 'tick-'));
  const file = join(dir, 'out.txt');
  const fd = openSync(file, 'w');
  try {
    execFileSync(process.execPath, ['--import', 'tsx', '--expose-gc', '--allow-natives-syntax', '--trace-protector-invalidation', script, ...(keep ? ['keep'] : [])], { stdio: ['ignore', fd, fd] });
    const out = readFileSync(file, 'utf8');
    return {
      sites: [...out.matchAll(/slot #\d+ DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((m) => m[1]),
      protectorsOff: [...out.matchAll(/Invalidating protector cell (\w+)/g)].map((m) => m[1]),
    };
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("Node's tick objects", () => {
  it('lose their maps in a full collection while none is alive, and V8 then takes every nextTick through its runtime (megamorphic)', () => {
    // Node 20's nextTick: {[async_id_symbol], [trigger_async_id_symbol], callback, args}. If a later
    // Node no longer does this, this fails, and keepTickObjectMaps can go.
    expect(tickSites(false).sites).toEqual(['MONOMORPHIC', 'MEGAMORPHIC', 'MEGAMORPHIC', 'MEGAMORPHIC']);
  });

  it("keep them, and the sites stay monomorphic, once keepTickObjectMaps has kept one; V8's fast paths for promises stay on", () => {
    const { sites, protectorsOff } = tickSites(true);
    expect(sites).toEqual(['MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC']);
    // An async hook, even enabled for one tick, would have turned this one off for the process's life.
    expect(protectorsOff).not.toContain('PromiseHook');
  });
});
