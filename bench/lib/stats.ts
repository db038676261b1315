/** The summaries every benchmark reports of its samples. */

/** The middle value; of an even count, the mean of the two middle values. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The value below which a share `q` of the samples lie (nearest rank, rounded down): the 90th percentile is quantile(xs, 0.9). */
export function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}
