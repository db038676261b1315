/**
 * Money: amounts are integer cents; a rate is an exact fraction num/den. Each amount is rounded
 * once, to the cent, half away from zero. Products that fit in 2^53 stay in fast Number
 * arithmetic; larger ones go through BigInt so nothing is ever silently inexact.
 */

/** A share of a value: num/den, and the percent as printed. */
export interface Share {
  num: number;
  den: number;
  percent: number;
}

/** A percent as printed (`12.5`) → 125/1000 of the value. */
export function percentShare(pct: string): Share {
  const [w, f = ''] = pct.trim().split('.');
  return { num: Number(w + f), den: 100 * 10 ** f.length, percent: Number(pct) };
}

/** round(a × b / d) for non-negative integers, half away from zero. */
export function mulDivRound(a: number, b: number, d: number): number {
  const p = a * b;
  if (p <= Number.MAX_SAFE_INTEGER) {
    const q = Math.floor(p / d);
    const r = p - q * d;
    return 2 * r >= d ? q + 1 : q;
  }
  return Number(roundFraction(BigInt(a) * BigInt(b), BigInt(d)));
}

/** round(n / d) for BigInt n ≥ 0, d > 0, half away from zero. */
export function roundFraction(n: bigint, d: bigint): bigint {
  const q = n / d;
  return 2n * (n - q * d) >= d ? q + 1n : q;
}

/** A non-negative decimal written in text or as a number, parsed exactly: value = units / 10^scale. */
export interface Decimal {
  units: bigint;
  scale: number;
}

const DECIMAL = /^\+?(\d*)(?:\.(\d*))?$/;

/** Parses `12`, `12.5`, `0.125`, `1e3`; returns null when the text is not a plain non-negative decimal. */
export function parseDecimal(input: string | number): Decimal | null {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input) || input < 0) return null;
    // From 1e21 on, a double is a whole number that toFixed still writes with an exponent.
    if (input >= 1e21) return { units: BigInt(input), scale: 0 };
    text = String(input);
    if (text.includes('e')) text = input.toFixed(20).replace(/0+$/, '');
  } else {
    text = input.trim();
  }
  const m = DECIMAL.exec(text);
  if (!m || (m[1] === '' && (m[2] === undefined || m[2] === ''))) return null;
  const frac = m[2] ?? '';
  return { units: BigInt((m[1] || '0') + frac), scale: frac.length };
}

/** Exact cents of a decimal amount, rounded half away from zero. */
export function decimalToCents(d: Decimal): number {
  if (d.scale <= 2) return Number(d.units * 10n ** BigInt(2 - d.scale));
  return Number(roundFraction(d.units, 10n ** BigInt(d.scale - 2)));
}

/** Cents as dollars for output (the nearest double to an exact cent amount). */
export function dollars(cents: number): number {
  return cents / 100;
}

/**
 * `total` shared by weights that are one part of a larger whole (`sum` in all, `before` of it in
 * earlier parts), by cumulative rounding: each part is round(total × (before + weights so far) /
 * sum) less the same before it, so the parts of every request of the whole add up to `total`
 * exactly, and each is within a cent of its exact share.
 */
export function allocatePart(total: number, sum: number, before: number, weights: readonly number[]): number[] {
  if (sum === 0 || total === 0) return weights.map(() => 0);
  let cum = before;
  let given = mulDivRound(total, cum, sum);
  return weights.map((w) => {
    cum += w;
    const upTo = mulDivRound(total, cum, sum);
    const part = upTo - given;
    given = upTo;
    return part;
  });
}

/**
 * Splits `total` cents across weights (integer cents) so the parts add up exactly to `total`:
 * each part gets the floor of its exact share, then the cents left over go to the largest
 * remainders (ties: the larger weight, then the earlier line).
 */
export function allocate(total: number, weights: readonly number[]): number[] {
  // A single line (every GET /duty) takes the whole amount, or nothing when its weight is 0.
  if (weights.length === 1) return [weights[0] > 0 ? total : 0];
  let sum = 0;
  let maxWeight = 0;
  for (const w of weights) {
    sum += w;
    if (w > maxWeight) maxWeight = w;
  }
  const parts = new Array<number>(weights.length).fill(0);
  if (sum === 0 || total === 0) return parts;
  // Products below 2^52 are exact in doubles (a floor off by one is corrected); others use BigInt.
  if (!(sum <= 2 ** 52 && total * maxWeight <= 2 ** 52)) return allocateBig(total, sum, weights, parts);
  const remainders = new Float64Array(weights.length);
  let given = 0;
  for (let i = 0; i < weights.length; i++) {
    const exact = total * weights[i];
    let q = Math.floor(exact / sum);
    let rem = exact - q * sum;
    if (rem < 0) {
      q--;
      rem += sum;
    } else if (rem >= sum) {
      q++;
      rem -= sum;
    }
    parts[i] = q;
    remainders[i] = rem;
    given += q;
  }
  const left = total - given;
  if (left === 0) return parts;
  // The cents left go to the `left` largest remainders: those above the left-th largest value, then
  // among those equal to it the larger weights and earlier lines (found by selection, not a sort).
  const threshold = kthSmallest(remainders.slice(), weights.length - left);
  const tied: number[] = [];
  let k = 0;
  for (let i = 0; i < weights.length; i++) {
    if (remainders[i] > threshold) {
      parts[i]++;
      k++;
    } else if (remainders[i] === threshold) tied.push(i);
  }
  tied.sort((a, b) => weights[b] - weights[a] || a - b);
  for (let j = 0; k < left; j++, k++) parts[tied[j]]++;
  return parts;
}

/** The k-th smallest value (0-based) of xs, which it reorders: quickselect, three-way so equal values stay linear. */
function kthSmallest(xs: Float64Array, k: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  while (lo < hi) {
    const a = xs[lo];
    const b = xs[(lo + hi) >> 1];
    const c = xs[hi];
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    // xs[lo, lt) < pivot, xs[lt, i) = pivot, xs(gt, hi] > pivot.
    let lt = lo;
    let i = lo;
    let gt = hi;
    while (i <= gt) {
      const v = xs[i];
      if (v < pivot) {
        xs[i++] = xs[lt];
        xs[lt++] = v;
      } else if (v > pivot) {
        xs[i] = xs[gt];
        xs[gt--] = v;
      } else i++;
    }
    if (k < lt) hi = lt - 1;
    else if (k > gt) lo = gt + 1;
    else return pivot;
  }
  return xs[lo];
}

/** allocate's exact path for amounts whose products exceed doubles: the same rule in BigInt. */
function allocateBig(total: number, sum: number, weights: readonly number[], parts: number[]): number[] {
  const remainders: { i: number; r: bigint; w: number }[] = [];
  let given = 0;
  const bt = BigInt(total);
  const bs = BigInt(sum);
  for (let i = 0; i < weights.length; i++) {
    const exact = bt * BigInt(weights[i]);
    const q = exact / bs;
    parts[i] = Number(q);
    given += parts[i];
    remainders.push({ i, r: exact - q * bs, w: weights[i] });
  }
  remainders.sort((a, b) => (a.r === b.r ? b.w - a.w || a.i - b.i : a.r > b.r ? -1 : 1));
  for (let k = 0; given < total; k++, given++) parts[remainders[k].i]++;
  return parts;
}
