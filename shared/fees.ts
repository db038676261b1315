/**
 * Customs user fees on an entry: the merchandise processing fee (MPF, ad valorem with a minimum and
 * a maximum per formal entry) and the harbor maintenance fee (HMF, ocean shipments only). Figures
 * come from the dated table in policy.ts.
 */
import { FEE_PERIODS, type FeePeriod } from './policy.js';
import { decimalToCents, mulDivRound, parseDecimal } from './money.js';

export interface FeeSchedule {
  period: FeePeriod;
  mpfNum: number;
  mpfDen: number;
  mpfMinCents: number;
  mpfMaxCents: number;
  hmfNum: number;
  hmfDen: number;
  /** Set when the date lies outside the period the figures were published for. */
  note: string | null;
}

const SCHEDULES: FeeSchedule[] = FEE_PERIODS.map((period) => {
  const mpf = percentFraction(period.mpf.percent);
  const hmf = percentFraction(period.hmf.percent);
  return {
    period,
    mpfNum: mpf[0],
    mpfDen: mpf[1],
    mpfMinCents: decimalToCents(parseDecimal(period.mpf.minimum)!),
    mpfMaxCents: decimalToCents(parseDecimal(period.mpf.maximum)!),
    hmfNum: hmf[0],
    hmfDen: hmf[1],
    note: null,
  };
});

const byDate = new Map<string, FeeSchedule>();

/** The fee figures for entries on `date` (ISO): the latest period that started on or before it. */
export function feeScheduleOn(date: string): FeeSchedule {
  let f = byDate.get(date);
  if (!f) {
    // Entry dates are calendar days between 1989 and 2099: the memo stays small.
    if (byDate.size >= 50_000) byDate.clear();
    byDate.set(date, (f = scheduleOn(date)));
  }
  return f;
}

function scheduleOn(date: string): FeeSchedule {
  let chosen = SCHEDULES[0];
  for (const s of SCHEDULES) if (s.period.from <= date) chosen = s;
  if (date < chosen.period.from)
    return { ...chosen, note: `Fee figures before ${chosen.period.from} are not in the table; those of the fiscal year from ${chosen.period.from} were used.` };
  if (date > chosen.period.through)
    return { ...chosen, note: `MPF/HMF figures of the fiscal year ${chosen.period.from} to ${chosen.period.through} were used; a later adjustment is not yet in the table.` };
  return chosen;
}

/** MPF on an entry of `valueCents` liable to it: the ad valorem fee held between minimum and maximum. */
export function mpfCents(valueCents: number, f: FeeSchedule): number {
  if (valueCents <= 0) return 0;
  const fee = mulDivRound(valueCents, f.mpfNum, f.mpfDen);
  return Math.min(f.mpfMaxCents, Math.max(f.mpfMinCents, fee));
}

/** HMF on the value of cargo unloaded from a vessel. */
export function hmfCents(valueCents: number, f: FeeSchedule): number {
  return valueCents <= 0 ? 0 : mulDivRound(valueCents, f.hmfNum, f.hmfDen);
}

function percentFraction(text: string): [number, number] {
  const d = parseDecimal(text)!;
  return [Number(d.units), 100 * 10 ** d.scale];
}
