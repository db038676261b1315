/**
 * The engine alone, on one core: single-line results per second over a mix of real queries, the
 * time to cost a 1,000-line order, and the time to write that order's answer (the service's
 * orderJson) alone. `npm run bench` runs this file bundled by esbuild in its own
 * process, as dist/server/main.js runs the engine in production (tsx's per-module loading costs
 * the same code about a fifth of its speed); it prints the figures as JSON.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadTariff } from '../server/config.js';
import { orderJson } from '../server/serialize.js';
import { InputError, type DutyQuery, type OrderItem, type Tariff } from '../shared/index.js';
import { mulDivRound } from '../shared/money.js';
import { benchOrder, linePools, mixedItems, type LinePools } from './lib/lines.js';

export interface EngineFigures {
  singleLinePerSec: number;
  /** The same per second of the process's CPU time: steadier than wall time on a shared machine. */
  singleLinePerCpuSec: number;
  /** The floor: the same codes' hash lookup and one multiplication, per second. */
  referencePerSec: number;
  /** Queries of the mix the engine rejected (a bad mix would measure error paths). */
  singleLineErrors: number;
  orderMs: number;
  /** CPU time per order, ms. */
  orderCpuMs: number;
  orderLinesPerSec: number;
  /** CPU time to write the order's answer (its JSON bytes, as the service sends them), ms. */
  orderJsonCpuMs: number;
}

/** Calls per second of wall time and per second of the process's CPU time (user and system). */
export interface Rate {
  perSec: number;
  perCpuSec: number;
}

/** Calls per second of `fn`, run for about `ms` milliseconds after a warm-up of a quarter of that. */
export function rate(fn: (i: number) => void, ms: number, batch = 100): Rate {
  const timed = (budget: number): Rate => {
    let n = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let t = t0;
    while (t - t0 < budget) {
      for (let k = 0; k < batch; k++) fn(n++);
      t = performance.now();
    }
    const cpu = process.cpuUsage(cpu0);
    return { perSec: (n * 1000) / (t - t0), perCpuSec: (n * 1e6) / (cpu.user + cpu.system) };
  };
  timed(ms / 4);
  return timed(ms);
}

/** `orderItems`: the 1,000-line order (with ocean freight) whose costing is timed. */
export function engineBench(tariff: Tariff, pools: LinePools, orderItems: OrderItem[], ms = 2000): EngineFigures {
  // One object shape for every query, as a caller building them in one place makes them (spread
  // copies of the generator's items would measure V8's slow property lookups, not the engine).
  const queries: DutyQuery[] = mixedItems(pools, 1000, 7).map((item, i) => ({ hts: item.hts, value: item.value, origin: item.origin, qty: item.qty, ocean: i % 3 === 0 ? '1' : undefined }));
  let errors = 0;
  for (const q of queries) {
    try {
      tariff.duty(q);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      errors++;
    }
  }
  const single = rate((i) => {
    try {
      tariff.duty(queries[i % queries.length]);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
    }
  }, ms);
  const digits = queries.map((q) => String(q.hts).replace(/\./g, ''));
  const cents = queries.map((q) => Math.round(Number(q.value) * 100));
  let sink = 0;
  const reference = rate((i) => {
    const k = i % digits.length;
    if (tariff.schedule.find(digits[k])) sink += mulDivRound(cents[k], 25, 1000);
  }, ms);
  if (sink < 0) throw new Error('unreachable');
  const order = { items: orderItems, ocean: true };
  const orders = rate(() => tariff.order(order), ms, 1);
  const answer = tariff.order(order);
  const written = rate(() => orderJson(answer), ms, 1);
  return {
    singleLinePerSec: single.perSec,
    singleLinePerCpuSec: single.perCpuSec,
    referencePerSec: reference.perSec,
    singleLineErrors: errors,
    orderMs: 1000 / orders.perSec,
    orderCpuMs: 1000 / orders.perCpuSec,
    orderLinesPerSec: orders.perSec * orderItems.length,
    orderJsonCpuMs: 1000 / written.perCpuSec,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { ms: { type: 'string', default: '2000' } } });
  const tariff = loadTariff();
  const pools = linePools(tariff);
  console.log(JSON.stringify(engineBench(tariff, pools, benchOrder(pools), Number(values.ms))));
}
