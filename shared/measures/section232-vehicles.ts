/**
 * Section 232 on vehicles and their parts: passenger vehicles and light trucks and their parts
 * (U.S. note 33, 9903.94), medium- and heavy-duty vehicles, buses and MHD parts (note 38, 9903.74).
 * The product lists say which program a code is on; program_rates.csv gives the rate by origin and
 * date (the UK quota, the EU/JP/KR/TW "15% total" deals, the USMCA routes).
 */
import type { TariffLine } from '../schedule.js';
import { certifiedRow, chargeOf, claims, coveredAtNoDuty, finding, generalHeading, listing, listOfRow, NOTHING, programList, usmcaRow, type Charge, type Finding, type ListedProduct, type Measure, type MeasureQuery, type ListTable, type RateRow, type RateTable } from './measure.js';

/** Product list → the program of program_rates.csv that prices it. */
const RATE_PROGRAM: Readonly<Record<string, string>> = {
  s232_autos_vehicles: 's232_autos',
  s232_auto_parts: 's232_auto_parts',
  s232_mhd_vehicles: 's232_mhd',
  s232_buses: 's232_buses',
  s232_mhd_parts: 's232_mhd_parts',
};

/** The lists of note 38 (2025-11-01): the end use part_for=mhd names. */
const MHD_LISTS = new Set(['s232_mhd_vehicles', 's232_buses', 's232_mhd_parts']);

export function section232Vehicles(rates: RateTable, rows: ListTable): Measure {
  const list = programList(rows);

  /** Which list prices the line, given the end use the importer stated. */
  function productOf(q: MeasureQuery, listed: readonly ListedProduct[], assumptions: string[]): ListedProduct | null {
    const on = (p: string) => listed.find((e) => e.program === p);
    const passengerPart = on('s232_auto_parts');
    const mhdPart = on('s232_mhd_parts');
    if (passengerPart && mhdPart) {
      if (q.facts.partFor === 'mhd') return mhdPart;
      if (q.facts.partFor === null) assumptions.push(`part_for not given: ${q.line.hts} (on the note 33 and note 38 lists) is taken as a part of passenger vehicles or light trucks.`);
      return passengerPart;
    }
    // A vehicle on both lists (8704.60.00, electric trucks): a light truck of note 33 or a medium/heavy-duty vehicle of note 38, as part_for says.
    const light = on('s232_autos_vehicles');
    const heavy = on('s232_mhd_vehicles');
    if (light && heavy) {
      if (q.facts.partFor === 'mhd') return heavy;
      if (q.facts.partFor === null) assumptions.push(`part_for not given: ${q.line.hts} (on the note 33 and note 38 lists) is taken as a passenger vehicle or light truck (note 33); give part_for=mhd for a medium- or heavy-duty vehicle (note 38).`);
      return light;
    }
    if (passengerPart?.remarks.startsWith('dual_use')) {
      if (q.facts.partFor === 'passenger') return passengerPart;
      // An assumption, not a note: most goods of these provisions (computers, pumps, springs) are not vehicle parts.
      if (q.facts.partFor === null)
        assumptions.push(`part_for not given: ${q.line.hts} (a dual-use provision of note 33(g)) is taken as not a part of passenger vehicles or light trucks; give part_for=passenger if it is one (9903.94.05, +25%).`);
      return mhdPart ?? null;
    }
    return listed.find((e) => RATE_PROGRAM[e.program]) ?? null;
  }

  /** part_for=mhd on a date before the line's note 38 entry begins: said, not silently taken (note 38 from 2025-11-01). */
  function mhdNotYet(q: MeasureQuery): string | null {
    if (q.facts.partFor !== 'mhd') return null;
    const mhd = list.all(q.line).filter((e) => MHD_LISTS.has(e.program));
    if (!mhd.length || mhd.some((e) => !e.from || e.from <= q.date)) return null;
    const from = mhd.map((e) => e.from).sort()[0];
    return `part_for=mhd has no effect before ${from}: ${q.line.hts} is on the note 38 list (medium- and heavy-duty vehicles, buses and their parts) only from that date.`;
  }

  function assess(q: MeasureQuery): Finding {
    const f = assessListed(q);
    const note = mhdNotYet(q);
    return note ? { ...f, notes: [...f.notes, note] } : f;
  }

  function assessListed(q: MeasureQuery): Finding {
    const listed = list.findAll(q.line, q.date);
    if (!listed.length) return NOTHING;
    const assumptions: string[] = [];
    const product = productOf(q, listed, assumptions);
    if (!product) return finding([], [], assumptions);
    const onList = (name: string) => listed.some((e) => e.program === name);
    const usmca = claims(q, 'usmca');
    const row = rates.pick(RATE_PROGRAM[product.program], q.country, q.date, (r) => {
      if (certifiedRow(r) || (usmcaRow(r) && !usmca)) return false;
      const named = listOfRow(r);
      if (named && !onList(named)) return false;
      return !(named === 's232_autos_UK_quota' && q.facts.ukQuota === false);
    });
    if (!row) return finding([], [], assumptions);
    if (listOfRow(row) === 's232_autos_UK_quota' && q.facts.ukQuota === null) assumptions.push(`uk_quota not given: the vehicle is taken as within the UK quota (${row.heading}).`);
    if (row.kind === 'zero') return coveredAtNoDuty([`Section 232: ${row.heading} (USMCA-qualifying) — no duty.`], assumptions);
    return finding([charge(q, row, assumptions)], [], assumptions);
  }

  const listings = (line: TariffLine) =>
    list.all(line).map((e) => {
      const program = RATE_PROGRAM[e.program] ?? (e.program.startsWith('s232_auto_parts') ? 's232_auto_parts' : 's232_autos');
      return listing(program, `${e.program}${e.remarks.startsWith('dual_use') ? ' (dual-use provision)' : ''}`, generalHeading(rates, program, (r) => listOfRow(r) === e.program || !listOfRow(r)), e);
    });

  return { authority: 'Section 232', assess, listings };
}

/** The charge of a row: on the non-U.S. content for the USMCA content routes, else on the full value. */
function charge(q: MeasureQuery, row: RateRow, assumptions: string[]): Charge {
  if (!/non-US content/i.test(row.basisText)) return chargeOf(row, 'Section 232', q.valueCents);
  if (q.facts.usContent === null) assumptions.push(`us_content not given: no U.S. content is deducted (${row.heading} charges the non-U.S. content once Commerce approves the importer's documentation).`);
  return chargeOf(row, 'Section 232', q.valueCents - (q.facts.usContent ?? 0), 'non_us_content');
}
