/**
 * Customs user fees on an entry: the merchandise processing fee (MPF, ad valorem with a minimum and
 * a maximum per formal entry) and the harbor maintenance fee (HMF, ocean shipments only). Figures
 * come from the dated table in policy.ts.
 */
import { FEE_PERIODS, MPF_EXEMPT_COUNTRIES, MPF_EXEMPT_PROGRAMS, type FeePeriod } from './policy.js';
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

/** The fiscal year a day falls in, named as the government names it: 2026-10-01 is in FY2027. */
const fiscalYear = (date: string) => Number(date.slice(0, 4)) + (date.slice(5) >= '10-01' ? 1 : 0);

/**
 * What a costing record says of the fee figures used for entries on `dates`, when another fiscal
 * year's figures stood in for an entry's own (its year is not in the table yet), or null.
 */
export function feeYearsUsed(dates: Iterable<string>): string | null {
  const said = new Set<string>();
  for (const date of new Set(dates)) {
    const f = feeScheduleOn(date);
    if (!f.note) continue;
    const own = `FY${fiscalYear(date)}`;
    const why = date > f.period.through ? `${own}'s adjustment is not yet in the table` : `${own}'s figures are not in the table`;
    said.add(`MPF/HMF figures of FY${fiscalYear(f.period.through)} used for ${own} (${why})`);
  }
  return said.size ? [...said].sort().join(' · ') : null;
}

/** MPF on an entry of `valueCents` liable to it: the ad valorem fee held between minimum and maximum. */
export function mpfCents(valueCents: number, f: FeeSchedule): number {
  if (valueCents <= 0) return 0;
  const fee = mulDivRound(valueCents, f.mpfNum, f.mpfDen);
  return Math.min(f.mpfMaxCents, Math.max(f.mpfMinCents, fee));
}

const exemptions = new Map<string, string>();

/**
 * Why goods of `country` claimed under `programs` owe no MPF (the note an answer carries), or null:
 * a program whose originating goods are exempt, or a country whose products are exempt whether or
 * not a program is claimed (policy.ts). One string per reason, shared by every line it explains.
 */
export function mpfExemption(country: string | null, programs: readonly string[]): string | null {
  const why = exemptionReason(country, programs);
  if (why === null) return null;
  let note = exemptions.get(why);
  if (!note) exemptions.set(why, (note = `No MPF: ${why}.`));
  return note;
}

function exemptionReason(country: string | null, programs: readonly string[]): string | null {
  // A program is kept only for goods of a country it covers (claimedSymbols), so the country is known.
  if (programs.some((p) => MPF_EXEMPT_PROGRAMS.has(p))) return `goods originating in ${country} are exempt under the free trade agreement`;
  const law = country === null ? undefined : MPF_EXEMPT_COUNTRIES[country];
  return law ? `products of ${country} are exempt whether or not a program is claimed (${law})` : null;
}

/** HMF on the value of cargo unloaded from a vessel. */
export function hmfCents(valueCents: number, f: FeeSchedule): number {
  return valueCents <= 0 ? 0 : mulDivRound(valueCents, f.hmfNum, f.hmfDen);
}

function percentFraction(text: string): [number, number] {
  const d = parseDecimal(text)!;
  return [Number(d.units), 100 * 10 ** d.scale];
}
