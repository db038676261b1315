/**
 * Realistic inputs drawn from the real schedule: tariff lines by kind (ad valorem, specific or
 * compound, Section 301 on products of China, special programs of partner origins) and every way
 * of naming an origin. The benchmarks build their 1,000-line orders from these; the property
 * tests draw from the same pools.
 */
import { ORIGINS, type OrderItem, type Tariff, type TariffLine } from '../../shared/index.js';

export interface LinePools {
  /** One rate, a share of the value. */
  adValorem: string[];
  /** A rate with an amount per unit (needs qty). */
  specific: string[];
  /** Lines whose footnotes cite Section 301 headings. */
  section301: string[];
  /** Lines listing at least one special program. */
  special: string[];
  /** Every line that carries rates, any kind. */
  all: string[];
}

/** Origins as callers write them: the enumeration, ISO codes and English names. */
export const ORIGIN_SPELLINGS: readonly string[] = [...ORIGINS, 'CN', 'CHN', 'China', 'VN', 'Vietnam', 'DE', 'Germany', 'JP', 'Japan', 'KR', 'Korea', 'MX', 'Mexico', 'CA', 'RU', 'Russia', 'IN', 'India'];

export function linePools(tariff: Tariff): LinePools {
  const pools: LinePools = { adValorem: [], specific: [], section301: [], special: [], all: [] };
  for (const line of tariff.schedule.lines() as Iterable<TariffLine>) {
    const g = line.rates?.general;
    if (!g || line.digits.length < 8 || line.digits.startsWith('98') || line.digits.startsWith('99')) continue;
    pools.all.push(line.hts);
    if (g.kind === 'ad_valorem') pools.adValorem.push(line.hts);
    if (g.specific) pools.specific.push(line.hts);
    if (line.section301.length) pools.section301.push(line.hts);
    if (line.rates!.special.length) pools.special.push(line.hts);
  }
  return pools;
}

/** A small deterministic generator, so every run costs the same order. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `n` mixed order lines: a quarter specific-rate lines with quantities, a quarter Section 301
 * lines of China (automatic Section 301), the rest ad valorem and special-program lines over
 * every origin spelling; values with cents.
 */
export function mixedItems(pools: LinePools, n: number, seed = 1): OrderItem[] {
  const rnd = seeded(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const value = () => (Math.floor(rnd() * 5_000_000) / 100).toFixed(2);
  return Array.from({ length: n }, (_, i): OrderItem => {
    switch (i % 4) {
      case 0:
        return { hts: pick(pools.specific), value: value(), origin: pick(ORIGIN_SPELLINGS), qty: String(1 + Math.floor(rnd() * 5000)) };
      case 1:
        return { hts: pick(pools.section301), value: value(), origin: pick(['china', 'CN', 'China']) };
      case 2:
        return { hts: pick(pools.special), value: value(), origin: pick(ORIGIN_SPELLINGS) };
      default:
        return { hts: pick(pools.adValorem), value: value(), origin: pick(ORIGIN_SPELLINGS) };
    }
  });
}

/** The 1,000-line order every order figure costs (engine alone and POST /duty/bulk alike). */
export function benchOrder(pools: LinePools): OrderItem[] {
  return mixedItems(pools, 1000, 11);
}
