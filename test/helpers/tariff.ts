/** The real schedule and country list, loaded once per test file, with a fixed "today". */
import { readChapter99 } from '../../server/data/ch99.js';
import { readCountries } from '../../server/data/countries.js';
import { datedSchedulePath, datedSchedules } from '../../server/data/dated-schedule.js';
import { readHtsFile } from '../../server/data/hts-file.js';
import { expect } from 'vitest';
import { buildSchedule, Tariff, type AdditionalDuty, type DutyResult, type HtsRow } from '../../shared/index.js';

let rows: HtsRow[] | undefined;
export function htsRows(): HtsRow[] {
  return (rows ??= readHtsFile().rows);
}

let tariff: Tariff | undefined;
/** Tariff whose default entry date is 2026-11-21, so results do not change with the calendar. */
export function realTariff(): Tariff {
  return (tariff ??= new Tariff(buildSchedule(htsRows(), '2026 Revision 10'), readCountries(), readChapter99(), () => '2026-11-21'));
}

let dated: Tariff | undefined;
/** realTariff with the dated schedule (data/hts/dated-schedule.json.gz): each date costed on its own revision (issue 38). */
export function datedTariff(): Tariff {
  return (dated ??= new Tariff(buildSchedule(htsRows(), '2026 Revision 10'), readCountries(), readChapter99(), () => '2026-11-21', undefined, datedSchedules(datedSchedulePath())));
}

/** The layer of `program` in a result, or undefined. */
export function layerOf(r: DutyResult, program: string): AdditionalDuty | undefined {
  return r.additional_duties.find((l) => l.program === program);
}

/** The programs of a result's layers, in stacking order. */
export const programsOf = (r: DutyResult): string[] => r.additional_duties.map((l) => l.program);

/** The programs of a result's layers that owe duty (not the exemption headings, `rate_kind: exempt`). */
export const owedOf = (r: DutyResult): string[] => r.additional_duties.filter((l) => l.rate_kind !== 'exempt').map((l) => l.program);

/** The exemption layers of a result as `program heading` (rate 0, amount 0). */
export const exemptOf = (r: DutyResult): string[] =>
  r.additional_duties.filter((l) => l.rate_kind === 'exempt').map((l) => (expect(l).toMatchObject({ rate: 0, amount: 0 }), `${l.program} ${l.heading}`));
